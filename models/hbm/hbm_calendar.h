#pragma once
// A shared controller resource (a pseudo-channel's data bus, a bank group's column path)
// reserved in call order, which remembers a few idle holes so that later requests can use
// them. A request blocked on its own bank (tRC, a precharge) reserves the resource late and
// leaves a hole behind it; requests to other banks, called after it, fill the hole instead of
// queueing behind it. This is how a controller that serves ready banks out of order (FR-FCFS
// style) keeps bank-level parallelism, without per-cycle work: find() and commit() cost
// O(holes). With no holes the resource is strictly first-come first-served.
#include <cstdint>

#include "models/common/tick.h"

namespace npusim {

class HbmCalendar {
 public:
  static constexpr int kMaxHoles = 32;

  struct Slot {
    Tick start = 0;
    int hole = -1;  // -1: at the frontier (after everything reserved so far)
  };

  // `holes`: how many idle intervals to remember (0..kMaxHoles); `minHole`: shorter intervals
  // are useless to anyone and are forgotten.
  void configure(int holes, Tick minHole) {
    capacity_ = holes < 0 ? 0 : (holes > kMaxHoles ? kMaxHoles : holes);
    minHole_ = minHole;
  }

  Tick frontier() const { return frontier_; }
  uint8_t lastTag() const { return lastTag_; }

  // Earliest start for an interval: at the frontier, no earlier than `frontierReady` (which the
  // caller has raised above `ready` by any in-order constraint, e.g. a bus turnaround), or
  // inside a hole no earlier than `ready` with room for `holeLen`. Tags (0 = not used) mark
  // what the interval is (a read or a write on a data bus): next to a neighbour with another
  // tag the interval keeps `turnIn` after it and `turnOut` before it (the bus turnarounds), so
  // a write can go between two reads when the hole is long enough for both turnarounds.
  Slot find(Tick ready, Tick frontierReady, Tick holeLen, uint8_t tag, Tick turnIn = 0,
            Tick turnOut = 0) const {
    Slot best;
    best.start = frontierReady > frontier_ ? frontierReady : frontier_;
    for (int i = 0; i < count_; ++i) {
      const uint8_t before = static_cast<uint8_t>(tags_[i] & 0xff),
                    after = static_cast<uint8_t>(tags_[i] >> 8);
      const Tick in = tag != 0 && before != 0 && before != tag ? turnIn : 0;
      const Tick out = tag != 0 && after != 0 && after != tag ? turnOut : 0;
      Tick s = ready > start_[i] + in ? ready : start_[i] + in;
      bool fits = s + holeLen + out <= end_[i] && s < best.start;
      if (fits) {
        best.start = s;
        best.hole = i;
      }
    }
    return best;
  }

  // Reserves what find() returned. At the frontier the frontier moves to `frontierEnd` (the
  // end of the interval as the caller finally computed it) and the idle time before the start
  // becomes a hole; inside a hole the hole is split around [start, start + holeLen). Holes
  // ending by `now` (the caller's arrival time: later requests arrive later) are forgotten.
  void commit(const Slot& s, Tick holeLen, Tick frontierEnd, uint8_t tag, Tick now) {
    if (s.hole >= 0) {
      const int i = s.hole;
      const Tick hs = start_[i], he = end_[i];
      const uint16_t tg = tags_[i];
      const uint8_t before = static_cast<uint8_t>(tg & 0xff), after = static_cast<uint8_t>(tg >> 8);
      const Tick rs = s.start + holeLen;
      // Reuse the slot for one piece, add the other.
      if (usable(rs, he)) {
        start_[i] = rs;
        tags_[i] = pack(tag, after);
        add(hs, s.start, before, tag);
      } else if (usable(hs, s.start)) {
        end_[i] = s.start;
        tags_[i] = pack(before, tag);
      } else {
        --count_;
        start_[i] = start_[count_];
        end_[i] = end_[count_];
        tags_[i] = tags_[count_];
      }
      return;
    }
    for (int i = 0; i < count_;) {
      if (end_[i] <= now + minHole_) {
        --count_;
        start_[i] = start_[count_];
        end_[i] = end_[count_];
        tags_[i] = tags_[count_];
      } else {
        ++i;
      }
    }
    add(frontier_, s.start, lastTag_, tag);
    if (frontierEnd > frontier_) frontier_ = frontierEnd;
    lastTag_ = tag;
  }

 private:
  static uint16_t pack(uint8_t before, uint8_t after) { return static_cast<uint16_t>(before | (after << 8)); }
  bool usable(Tick start, Tick end) const { return end > start && end - start >= minHole_; }
  void add(Tick start, Tick end, uint8_t before, uint8_t after) {
    if (!usable(start, end) || capacity_ == 0) return;
    int i = count_;
    if (count_ < capacity_) {
      ++count_;
    } else {
      // Full: forget the hole that ends first (the least likely to be usable later).
      i = 0;
      for (int j = 1; j < count_; ++j)
        if (end_[j] < end_[i]) i = j;
      if (end_[i] >= end) return;
    }
    start_[i] = start;
    end_[i] = end;
    tags_[i] = pack(before, after);
  }

  Tick frontier_ = 0;
  uint8_t lastTag_ = 0;
  int capacity_ = 0;
  int count_ = 0;
  Tick minHole_ = 0;
  // Holes as parallel arrays (the scan in find() is the hot loop).
  Tick start_[kMaxHoles] = {};
  Tick end_[kMaxHoles] = {};
  uint16_t tags_[kMaxHoles] = {};  // tag before | tag after << 8
};

}  // namespace npusim
