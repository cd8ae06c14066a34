#pragma once
// The ACT commands of one pseudo-channel: finds the earliest time at or after a bank's ready
// time at which an ACT may issue given the ACTs already placed (tRRD_S between any two,
// tRRD_L within a bank group, at most four in any tFAW window). ACTs already placed later in
// time (a request blocked on a busy bank reserved its ACT late) do not block an earlier ACT to
// another bank if it fits between them: this is the bank-level parallelism of a controller
// that activates ready banks out of order. In first-come first-served mode an ACT never issues
// before the latest one placed. Cost: O(kSize) per ACT, no per-cycle work.
#include <cstdint>

#include "models/common/tick.h"

namespace npusim {

class HbmActHistory {
 public:
  static constexpr int kSize = 16;  // ACTs remembered (a power of two); older ones only bound via floor_

  void configure(bool reorder, Tick tRRD_S, Tick tRRD_L, Tick tFAW) {
    reorder_ = reorder;
    rrdS_ = tRRD_S;
    rrdL_ = tRRD_L;
    faw_ = tFAW;
  }

  Tick find(Tick ready, uint8_t group) const {
    Tick x = ready > floor_ ? ready : floor_;
    if (!reorder_ && n_ > 0 && time(n_ - 1) > x) x = time(n_ - 1);
    const Tick maxRrd = rrdS_ > rrdL_ ? rrdS_ : rrdL_;
    int p = n_;  // first ACT strictly after x; x only moves forward, so p does too
    while (p > 0 && time(p - 1) > x) --p;
    for (int iter = 0; iter < 4 * kSize; ++iter) {
      while (p < n_ && time(p) <= x) ++p;
      // Constraints from earlier ACTs push x later.
      Tick need = x;
      for (int i = p - 1; i >= 0 && x - time(i) < maxRrd; --i) {
        Tick t = time(i) + rrd(i, group);
        if (t > need) need = t;
      }
      if (p >= 4 && time(p - 4) + faw_ > need) need = time(p - 4) + faw_;
      if (need > x) {
        x = need;
        continue;
      }
      // x must also keep its distance to later ACTs and not put five of them in one window.
      bool fits = true;
      for (int i = p; i < n_ && time(i) - x < maxRrd; ++i)
        if (time(i) - x < rrd(i, group)) fits = false;
      for (int k = 0; k < 4 && fits; ++k) {  // k earlier ACTs + x + (4 - k) later ACTs
        int last = p + 3 - k;
        if (p - k < 0 || last >= n_) continue;
        Tick first = k > 0 ? time(p - k) : x;
        if (time(last) - first < faw_) fits = false;
      }
      if (fits) return x;
      x = time(p) + rrdS_;  // try after the next ACT
    }
    return n_ > 0 ? time(n_ - 1) + faw_ : x;  // not reached with sane timings
  }

  void commit(Tick t, uint8_t group) {
    if (n_ == kSize) {  // forget the oldest; nothing may be placed within tFAW after it
      if (time(0) + faw_ > floor_) floor_ = time(0) + faw_;
      head_ = (head_ + 1) & kMask;
      --n_;
    }
    int p = n_;
    while (p > 0 && time(p - 1) > t) {
      slot(p) = slot(p - 1);
      --p;
    }
    slot(p) = Entry{t, group};
    ++n_;
  }

 private:
  struct Entry {
    Tick time;
    uint8_t group;
  };
  static constexpr int kMask = kSize - 1;
  // Entries in time order, oldest first, in a ring so forgetting the oldest is O(1).
  Tick time(int i) const { return ring_[(head_ + i) & kMask].time; }
  Entry& slot(int i) { return ring_[(head_ + i) & kMask]; }
  Tick rrd(int i, uint8_t group) const { return ring_[(head_ + i) & kMask].group == group ? rrdL_ : rrdS_; }

  bool reorder_ = true;
  Tick rrdS_ = 0, rrdL_ = 0, faw_ = 0;
  Tick floor_ = 0;
  int n_ = 0;
  int head_ = 0;
  Entry ring_[kSize] = {};
};

}  // namespace npusim
