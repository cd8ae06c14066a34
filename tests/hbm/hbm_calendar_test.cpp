// HbmCalendar's holes (models/hbm/hbm_calendar.h): a transfer may go into an idle interval left
// behind earlier reservations; next to a transfer of the other direction it keeps the bus
// turnaround on that side, so a write fits between two reads only when both turnarounds fit.
#include "models/hbm/hbm_calendar.h"

#include <gtest/gtest.h>

namespace npusim {
namespace {

constexpr uint8_t kRead = 1, kWrite = 2;

// Reads at [0, 10) and [100, 110): a hole [10, 100) with reads on both sides.
HbmCalendar readsAround90TickHole() {
  HbmCalendar c;
  c.configure(8, 1);
  c.commit(c.find(0, 0, 10, kRead), 10, 10, kRead, 0);
  HbmCalendar::Slot late = c.find(100, 100, 10, kRead);
  EXPECT_EQ(late.start, 100u);
  c.commit(late, 10, 110, kRead, 0);
  return c;
}

TEST(HbmCalendar, SameDirectionFillsTheHoleWithoutTurnaround) {
  HbmCalendar c = readsAround90TickHole();
  HbmCalendar::Slot s = c.find(5, 200, 90, kRead, 30, 40);
  EXPECT_GE(s.hole, 0);
  EXPECT_EQ(s.start, 10u);
}

TEST(HbmCalendar, OtherDirectionKeepsBothTurnaroundsInsideTheHole) {
  HbmCalendar c = readsAround90TickHole();
  // 30 before + 20 + 40 after = 90: fits exactly, starting after the read-to-write turnaround.
  HbmCalendar::Slot s = c.find(5, 200, 20, kWrite, 30, 40);
  EXPECT_GE(s.hole, 0);
  EXPECT_EQ(s.start, 40u);
  // One tick longer does not fit: it goes to the frontier (no earlier than frontierReady).
  HbmCalendar::Slot t = c.find(5, 200, 21, kWrite, 30, 40);
  EXPECT_EQ(t.hole, -1);
  EXPECT_EQ(t.start, 200u);
}

TEST(HbmCalendar, WithoutTurnaroundsTheOldRuleHolds) {
  HbmCalendar c = readsAround90TickHole();
  // Turnarounds of zero: a write uses the hole as a read would.
  HbmCalendar::Slot s = c.find(5, 200, 90, kWrite);
  EXPECT_GE(s.hole, 0);
  EXPECT_EQ(s.start, 10u);
}

TEST(HbmCalendar, AWriteInAHoleLeavesPiecesTaggedForTheirNeighbours) {
  HbmCalendar c = readsAround90TickHole();
  HbmCalendar::Slot w = c.find(5, 200, 10, kWrite, 10, 10);
  ASSERT_EQ(w.start, 20u);
  c.commit(w, 10, 0, kWrite, 0);
  // [30, 100) now has the write before it and a read after it: a read needs the write-to-read
  // turnaround (here 25) after the write, and nothing before the read at 100.
  HbmCalendar::Slot r = c.find(30, 200, 45, kRead, 25, 5);
  EXPECT_GE(r.hole, 0);
  EXPECT_EQ(r.start, 55u);
  EXPECT_EQ(c.find(30, 200, 46, kRead, 25, 5).hole, -1);
}

}  // namespace
}  // namespace npusim
