#pragma once
// The idle intervals a serial resource has left before its later reservations: the one gap
// structure of every reservation channel (Channel: PCIe link directions, the root complex,
// host memory, DMA paths; HbmCalendar: an HBM pseudo-channel's buses). A resource reserved for
// a transaction timed later than its frontier leaves the time in between idle; a transaction
// timed earlier, called afterwards, takes the earliest gap it fits into instead of queueing
// behind. Gaps are disjoint and kept in time order, so the earliest fit is the first one that
// fits and a lookup is a binary search plus a short scan (none when the time asked is past
// every gap, the common case: traffic booked at the frontier). They live in one vector whose
// front is dropped by moving an index (compacted now and then): the HBM model asks several
// times per 64 B segment, so contiguous storage matters.
//
// Nothing is forgotten silently: a gap goes only when its owner says no transaction can use it
// any more (it ends before every time still to be booked), or when the owner gives a `limit`
// (the HBM controller's look-ahead, a modelled hardware window: hbm.reorder_holes). Without a
// limit the structure is exact.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/common/tick.h"

namespace npusim {

class IdleGaps {
 public:
  // `before`/`after`: tags of the reservations on either side (0 = none or not used), so that
  // a resource with turnarounds (a data bus between reads and writes) can keep them.
  struct Gap {
    Tick start, end;
    uint8_t before = 0, after = 0;
  };
  static constexpr size_t kUnlimited = SIZE_MAX;

  // Keeps at most `limit` gaps (when full, the one that ends first makes room for a later one)
  // and none shorter than `minLength` (shorter ones are useful to nobody).
  void configure(size_t limit, Tick minLength) {
    limit_ = limit;
    minLength_ = minLength < 1 ? 1 : minLength;
  }

  size_t size() const { return gaps_.size() - head_; }
  const Gap& operator[](size_t i) const { return gaps_[head_ + i]; }

  // The earliest start >= `ready` of `len` inside a gap, earlier than `notAfter`: after a
  // neighbour with another tag it keeps `turnIn`, before one it keeps `turnOut`. Returns the
  // gap's index and sets *start, or -1.
  long fit(Tick ready, Tick len, Tick notAfter, uint8_t tag, Tick turnIn, Tick turnOut, Tick* start) const {
    if (size() == 0 || gaps_.back().end < ready + len) return -1;  // all end too early: no search
    for (size_t i = firstEndingFrom(ready), n = size(); i < n; ++i) {
      const Gap& g = (*this)[i];
      const Tick in = tag != 0 && g.before != 0 && g.before != tag ? turnIn : 0;
      const Tick out = tag != 0 && g.after != 0 && g.after != tag ? turnOut : 0;
      const Tick s = std::max(ready, g.start + in);
      if (s >= notAfter) return -1;  // the gaps after this one start later still
      if (s + len + out <= g.end) {
        *start = s;
        return static_cast<long>(i);
      }
    }
    return -1;
  }

  // The gap holding time `t`, or -1.
  long holding(Tick t) const {
    // The common case: `t` is past every gap (traffic booked at the frontier), no search.
    if (size() == 0 || gaps_.back().end <= t) return -1;
    const size_t i = firstEndingFrom(t);
    return i < size() && (*this)[i].start <= t && t < (*this)[i].end ? static_cast<long>(i) : -1;
  }

  // Marks [s, e) of gap i as used by a reservation tagged `tag`; the pieces on either side stay.
  void take(size_t i, Tick s, Tick e, uint8_t tag) {
    Gap& g = gaps_[head_ + i];
    const bool keepLeft = usable(g.start, s), keepRight = usable(e, g.end);
    if (keepRight) {
      const Tick leftStart = g.start;
      const uint8_t leftBefore = g.before;
      g.start = e, g.before = tag;  // the gap becomes its right piece
      if (keepLeft) insert(i, leftStart, s, leftBefore, tag);
    } else if (keepLeft) {
      g.end = s, g.after = tag;
    } else {
      gaps_.erase(gaps_.begin() + static_cast<std::ptrdiff_t>(head_ + i));
    }
  }

  // A new gap [s, e), later than every other (idle time left before a reservation at the
  // frontier), between reservations tagged `before` and `after`.
  void open(Tick s, Tick e, uint8_t before = 0, uint8_t after = 0) {
    if (usable(s, e)) insert(size(), s, e, before, after);
  }

  // Forgets the gaps that end by `t`: no transaction still to be booked can use them.
  void forgetEndingBy(Tick t) {
    while (head_ < gaps_.size() && gaps_[head_].end <= t) ++head_;
    compact();
  }

 private:
  // Drops the forgotten front for good: at once for a bounded window (at most `limit_` gaps to
  // move, and the vector stays where it is in the cache: the HBM model asks thousands of these
  // per microsecond of traffic), else once it is most of the vector (amortised O(1)).
  void compact() {
    if (head_ == gaps_.size()) {
      gaps_.clear();
      head_ = 0;
    } else if (head_ > 0 && (limit_ <= kSmallWindow || (head_ >= 16 && 2 * head_ >= gaps_.size()))) {
      gaps_.erase(gaps_.begin(), gaps_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  static constexpr size_t kSmallWindow = 64;
  bool usable(Tick s, Tick e) const { return e > s && e - s >= minLength_; }
  size_t firstEndingFrom(Tick t) const {
    const auto first = gaps_.begin() + static_cast<std::ptrdiff_t>(head_);
    if (size() <= 8) {  // a few gaps (the HBM's): a scan is cheaper than bisection
      auto it = first;
      while (it != gaps_.end() && it->end < t) ++it;
      return static_cast<size_t>(it - first);
    }
    auto it = std::lower_bound(first, gaps_.end(), t, [](const Gap& g, Tick v) { return g.end < v; });
    return static_cast<size_t>(it - first);
  }
  // Inserts [s, e) at position i (time order holds); when the limit is reached the gap that ends
  // first makes room, unless it is the new one. The fields are stored one by one, never copied
  // as a built Gap: reading back a struct just written field by field with wider loads stalls
  // the store buffer, which cost a third of a channel reservation.
  void insert(size_t i, Tick s, Tick e, uint8_t before, uint8_t after) {
    if (limit_ == 0) return;
    if (size() >= limit_) {
      if (gaps_[head_].end >= e) return;
      ++head_;
      if (i > 0) --i;
      compact();  // (positions are relative to head_, so i still holds)
    }
    const size_t at = head_ + i;
    if (at == gaps_.size())
      gaps_.emplace_back();  // the common case (a gap opened at the frontier): nothing moves
    else
      gaps_.emplace(gaps_.begin() + static_cast<std::ptrdiff_t>(at));
    Gap& g = gaps_[at];
    g.start = s, g.end = e, g.before = before, g.after = after;
  }

  std::vector<Gap> gaps_;
  size_t head_ = 0;  // gaps_[0, head_) are forgotten
  size_t limit_ = kUnlimited;
  Tick minLength_ = 1;
};

}  // namespace npusim
