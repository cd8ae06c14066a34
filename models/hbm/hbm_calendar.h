#pragma once
// A shared controller resource (a pseudo-channel's data bus, a bank group's column path)
// reserved in call order, which remembers a few idle holes so that later requests can use
// them (IdleGaps, the gap structure every reservation channel shares). A request blocked on its
// own bank (tRC, a precharge) reserves the resource late and
// leaves a hole behind it; requests to other banks, called after it, fill the hole instead of
// queueing behind it. This is how a controller that serves ready banks out of order (FR-FCFS
// style) keeps bank-level parallelism, without per-cycle work: find() and commit() cost
// O(holes). With no holes the resource is strictly first-come first-served.
#include <cstdint>

#include "models/common/idle_gaps.h"
#include "models/common/tick.h"

namespace npusim {

class HbmCalendar {
 public:
  static constexpr int kMaxHoles = 32;

  struct Slot {
    Tick start = 0;
    int hole = -1;  // -1: at the frontier (after everything reserved so far)
  };

  HbmCalendar() { configure(0, 0); }  // strictly in order until configured

  // `holes`: how many idle intervals the controller looks back into (0..kMaxHoles: its
  // reordering window, a modelled hardware limit); `minHole`: shorter intervals are useless to
  // anyone and are forgotten.
  void configure(int holes, Tick minHole) {
    const int capacity = holes < 0 ? 0 : (holes > kMaxHoles ? kMaxHoles : holes);
    holes_.configure(static_cast<size_t>(capacity), minHole);
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
    Tick s = 0;
    const long hole = holes_.fit(ready, holeLen, best.start, tag, turnIn, turnOut, &s);
    if (hole >= 0) {
      best.start = s;
      best.hole = static_cast<int>(hole);
    }
    return best;
  }

  // Reserves what find() returned. At the frontier the frontier moves to `frontierEnd` (the
  // end of the interval as the caller finally computed it) and the idle time before the start
  // becomes a hole; inside a hole the hole is split around [start, start + holeLen). Holes
  // ending by `horizon` (before which no request still to come arrives) are forgotten.
  void commit(const Slot& s, Tick holeLen, Tick frontierEnd, uint8_t tag, Tick horizon) {
    if (s.hole >= 0) {
      holes_.take(static_cast<size_t>(s.hole), s.start, s.start + holeLen, tag);
      return;
    }
    holes_.forgetEndingBy(horizon + minHole_);
    holes_.open(frontier_, s.start, lastTag_, tag);
    if (frontierEnd > frontier_) frontier_ = frontierEnd;
    lastTag_ = tag;
  }

 private:
  Tick frontier_ = 0;
  uint8_t lastTag_ = 0;
  Tick minHole_ = 0;
  IdleGaps holes_;
};

}  // namespace npusim
