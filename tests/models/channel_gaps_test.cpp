// The channel keeps its idle gaps in IdleGaps (time-ordered, searched by bisection, nothing
// forgotten that could still be used). Property: on random traffic it books exactly what the
// plain rules give, written here as directly as possible: an unbounded list of disjoint gaps; a
// reservation takes the earliest place it fits (a gap or the frontier); background traffic
// takes idle time inside a gap or pushes the frontier.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "models/common/channel.h"

using namespace npusim;

namespace {

struct PlainChannel {
  struct Gap {
    Tick s, e;
  };
  explicit PlainChannel(double bytesPerSec) : rate(bytesPerSec) {}
  double rate;
  Tick frontier = 0;
  std::vector<Gap> gaps;

  Tick ticksFor(uint64_t b) const { return transferTicks(b, rate); }
  void add(Tick s, Tick e) {
    if (e > s) gaps.push_back({s, e});
  }
  void take(size_t i, Tick s, Tick e) {
    const Gap g = gaps[i];
    gaps.erase(gaps.begin() + static_cast<long>(i));
    add(g.s, s);
    add(e, g.e);
  }
  Tick reserve(Tick ready, uint64_t bytes) {
    const Tick dur = ticksFor(bytes);
    Tick start = std::max(ready, frontier);
    long best = -1;
    if (ready < frontier)
      for (size_t i = 0; i < gaps.size(); ++i) {
        const Tick s = std::max(ready, gaps[i].s);
        if (s + dur <= gaps[i].e && s < start) start = s, best = static_cast<long>(i);
      }
    if (best >= 0) {
      take(static_cast<size_t>(best), start, start + dur);
    } else {
      if (start > frontier) add(frontier, start);
      frontier = start + dur;
    }
    return start;
  }
  void background(Tick at, uint64_t bytes) {
    const Tick dur = ticksFor(bytes);
    if (at >= frontier) return;
    for (size_t i = 0; i < gaps.size(); ++i)
      if (at >= gaps[i].s && at < gaps[i].e) return take(i, at, std::min(at + dur, gaps[i].e));
    frontier += dur;
  }
};

// Books 4000 random transactions on both and compares every start. `pick(rng, limit)` gives a
// transaction's size below `limit`.
template <typename Pick>
void bookAlike(unsigned seed, Pick pick) {
  std::mt19937_64 rng(seed);
  Channel channel("channel", 32e9);
  PlainChannel plain{32e9};
  Tick clock = 0;
  for (int n = 0; n < 4000; ++n) {
    // Mostly streaming forward with holes; sometimes a transaction timed in the past (it may
    // fit a gap), sometimes an ACK-sized background packet.
    // Busy stretches (back to back) alternate with sparse ones (gaps open), so many gaps are
    // remembered and past-timed transactions split them anywhere, the oldest included.
    const bool busy = (n / 200) % 2 == 0;
    const uint64_t bytes = 16 + pick(rng, busy ? 4096 : 1024);
    clock += busy ? rng() % 2 * kNs : rng() % 300 * kNs;
    const Tick back = rng() % 4 == 0 ? rng() % (3 * kUs) : 0;
    const Tick at = clock - std::min(clock, back);
    if (rng() % 3 == 0) {
      const uint64_t ack = 8 + pick(rng, 24);
      channel.background(at, ack);
      plain.background(at, ack);
    }
    ASSERT_EQ(channel.reserve(at, bytes), plain.reserve(at, bytes)) << "seed " << seed << " step " << n;
  }
  EXPECT_EQ(channel.nextFree(), plain.frontier) << "seed " << seed;
}

}  // namespace

TEST(ChannelGaps, TheGapListBooksExactlyWhatThePlainRulesGive) {
  for (unsigned seed = 1; seed <= 20; ++seed)
    bookAlike(seed, [](std::mt19937_64& rng, uint64_t limit) { return rng() % limit; });
}

// The channel keeps the wire time of the last size it converted (a copy's bursts repeat one
// size): runs of a repeated size, then another, in reservations and in background traffic alike,
// give the wire times of the plain conversion.
TEST(ChannelGaps, RepeatedSizesGiveTheSameWireTimes) {
  for (unsigned seed = 1; seed <= 10; ++seed)
    bookAlike(seed, [](std::mt19937_64& rng, uint64_t limit) {
      return rng() % 8 == 0 ? rng() % limit : limit / 2;
    });
}
