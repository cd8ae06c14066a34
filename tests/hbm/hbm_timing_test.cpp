// Directed timing tests: single accesses whose completion time follows from the JEDEC rules.
#include <gtest/gtest.h>

#include "tests/hbm/hbm_test_util.h"

namespace npusim {
namespace {

using hbmtest::addr;
using hbmtest::ns;

class HbmTiming2e : public ::testing::Test {
 protected:
  HbmParams p = hbmtest::params();
  const HbmTiming& T = p.timing;
  const Tick t0 = ns(1000);
};

TEST_F(HbmTiming2e, ClosedBankReadCostsRcdPlusClPlusBurst) {
  HbmModel m(p);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5), 32, false, t0), t0 + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
  EXPECT_EQ(m.stats().rowMisses, 1u);
  // A second burst in the same bank (same group) follows tCCD_L later.
  HbmModel m2(p);
  EXPECT_EQ(m2.access(addr(m2, 3, 1, 2, 7), 64, false, t0),
            t0 + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tCCD_L) + ns(T.tBURST));
}

TEST_F(HbmTiming2e, ClosedBankWriteUsesWriteTimings) {
  HbmModel m(p);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5), 32, true, t0), t0 + ns(T.tRCDWR) + ns(T.tCWL) + ns(T.tBURST));
  EXPECT_EQ(m.stats().bytesWritten, 32u);
}

TEST_F(HbmTiming2e, RowHitCostsClPlusBurst) {
  HbmModel m(p);
  m.access(addr(m, 0, 0, 0, 5, 0), 32, false, 0);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5, 512), 32, false, t0), t0 + ns(T.tCL) + ns(T.tBURST));
  EXPECT_EQ(m.stats().rowHits, 1u);
}

TEST_F(HbmTiming2e, RowConflictCostsPrechargeActivateRead) {
  HbmModel m(p);
  m.access(addr(m, 0, 0, 0, 5), 32, false, 0);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 6), 32, false, t0),
            t0 + ns(T.tRP) + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
  EXPECT_EQ(m.stats().rowConflicts, 1u);
}

TEST_F(HbmTiming2e, EarlyConflictWaitsForTrasAndTrc) {
  HbmModel m(p);
  m.access(addr(m, 0, 0, 0, 5), 32, false, 0);  // ACT at 0
  // PRE no earlier than tRAS after that ACT, the next ACT no earlier than tRC after it.
  Tick act = std::max(ns(T.tRAS) + ns(T.tRP), ns(T.tRC));
  Tick done = m.access(addr(m, 0, 0, 0, 6), 32, false, ns(1));
  EXPECT_EQ(done, act + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
  EXPECT_GT(done, ns(1) + ns(T.tRP) + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
}

TEST_F(HbmTiming2e, SameBankGroupColumnsAreTccdLApartOtherGroupsTccdS) {
  ASSERT_GT(T.tCCD_L, T.tCCD_S);
  {
    HbmModel m(p);  // two banks of group 0
    m.access(addr(m, 0, 0, 0, 5), 32, false, 0);
    m.access(addr(m, 0, 0, 1, 5), 32, false, ns(100));
    Tick a = m.access(addr(m, 0, 0, 0, 5, 64), 32, false, t0);
    Tick b = m.access(addr(m, 0, 0, 1, 5, 64), 32, false, t0);
    EXPECT_EQ(a, t0 + ns(T.tCL) + ns(T.tBURST));
    EXPECT_EQ(b - a, ns(T.tCCD_L));
  }
  {
    HbmModel m(p);  // group 0 and group 1
    m.access(addr(m, 0, 0, 0, 5), 32, false, 0);
    m.access(addr(m, 0, 1, 0, 5), 32, false, ns(100));
    Tick a = m.access(addr(m, 0, 0, 0, 5, 64), 32, false, t0);
    Tick b = m.access(addr(m, 0, 1, 0, 5, 64), 32, false, t0);
    EXPECT_EQ(b - a, ns(T.tCCD_S));
  }
}

TEST_F(HbmTiming2e, ActivatesToOtherGroupsAreTrrdSApart) {
  HbmModel m(p);
  Tick a = m.access(addr(m, 0, 0, 0, 5), 32, false, t0);
  Tick b = m.access(addr(m, 0, 1, 0, 5), 32, false, t0);
  EXPECT_EQ(b - a, ns(T.tRRD_S));
}

TEST(HbmTiming, FawAllowsFourActivatesPerWindow) {
  HbmParams p = hbmtest::params();
  applyHbmTimingOverrides(&p.timing, "tRRD_S=2, tRRD_L=2, tFAW=30");
  const HbmTiming& T = p.timing;
  HbmModel m(p);
  const Tick t0 = ns(1000);
  const Tick lat = ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST);
  // Six reads to six closed banks, all arriving at t0: ACTs at 0, 2, 4, 6 ns, then the fifth
  // waits for the first + tFAW and the sixth for the second + tFAW.
  const uint32_t banks[6][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}, {1, 1}};
  const Tick expectAct[6] = {0, ns(2), ns(4), ns(6), ns(30), ns(32)};
  for (int i = 0; i < 6; ++i) {
    Tick done = m.access(addr(m, 0, banks[i][0], banks[i][1], 9), 32, false, t0);
    EXPECT_EQ(done, t0 + expectAct[i] + lat) << "read " << i;
  }
}

TEST_F(HbmTiming2e, WriteToReadTurnaround) {
  for (bool sameGroup : {false, true}) {
    HbmModel m(p);
    const uint32_t rg = sameGroup ? 0 : 1, rb = sameGroup ? 1 : 0;
    m.access(addr(m, 0, 0, 0, 5), 32, false, 0);  // open both rows
    m.access(addr(m, 0, rg, rb, 5), 32, false, ns(100));
    Tick w = m.access(addr(m, 0, 0, 0, 5, 64), 32, true, t0);
    EXPECT_EQ(w, t0 + ns(T.tCWL) + ns(T.tBURST));
    Tick r = m.access(addr(m, 0, rg, rb, 5, 64), 32, false, t0);
    EXPECT_EQ(r, w + ns(sameGroup ? T.tWTR_L : T.tWTR_S) + ns(T.tCL) + ns(T.tBURST))
        << "same group " << sameGroup;
  }
}

TEST_F(HbmTiming2e, ReadToWriteTurnaround) {
  HbmModel m(p);
  m.access(addr(m, 0, 0, 0, 5), 32, false, 0);
  m.access(addr(m, 0, 1, 0, 5), 32, false, ns(100));
  Tick r = m.access(addr(m, 0, 0, 0, 5, 64), 32, false, t0);
  EXPECT_EQ(r, t0 + ns(T.tCL) + ns(T.tBURST));
  // WR command tRTW after the RD command, its data tCWL later.
  EXPECT_EQ(m.access(addr(m, 0, 1, 0, 5, 64), 32, true, t0), t0 + ns(T.tRTW) + ns(T.tCWL) + ns(T.tBURST));
}

TEST_F(HbmTiming2e, ClosedPagePolicyActivatesEveryAccess) {
  p.openPage = false;
  HbmModel m(p);
  m.access(addr(m, 0, 0, 0, 5), 32, false, 0);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5, 64), 32, false, t0), t0 + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
  EXPECT_EQ(m.stats().rowHits, 0u);
  EXPECT_EQ(m.stats().rowMisses, 2u);
}

TEST(HbmTiming, ReadDuringRefreshWaitsForItsEndAndFindsTheRowClosed) {
  HbmParams p = hbmtest::params("hbm2e-3200", /*refresh=*/true);
  const HbmTiming& T = p.timing;
  HbmModel m(p);
  const Tick due = m.refreshDue(0, 0);
  EXPECT_EQ(due, ns(T.tREFI));  // pseudo-channel 0 is due last in the stagger, at tREFI
  m.access(addr(m, 0, 0, 0, 5), 32, false, 0);
  const Tick arrival = due + ns(10);
  Tick done = m.access(addr(m, 0, 0, 0, 5, 64), 32, false, arrival);
  EXPECT_EQ(done, due + ns(T.tRFC) + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
  EXPECT_EQ(m.stats().rowHits, 0u);
  EXPECT_EQ(m.stats().refreshStalls, 1u);
  EXPECT_EQ(m.stats().refreshStallTicks, due + ns(T.tRFC) - arrival);
  // Pseudo-channel 32 refreshed at tREFI / 2 and is not refreshing at that moment.
  EXPECT_EQ(m.access(addr(m, 32, 0, 0, 5), 32, false, arrival),
            arrival + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
}

TEST(HbmTiming, EarlierRequestGoesBeforeARefreshBookedByALaterOne) {
  // Requests reach the model out of time order (two DMA engines, each ahead in its own time). A
  // later-timed read books the refresh due at `due`; an earlier read that ends, precharge
  // included, before the refresh starts is not held back by it, and one that cannot goes after it.
  HbmParams p = hbmtest::params("hbm2e-3200", /*refresh=*/true);
  const HbmTiming& T = p.timing;
  HbmModel m(p);
  const Tick due = m.refreshDue(0, 0);
  const Tick miss = ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST);
  const Tick refreshEnd = due + ns(T.tRFC);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5), 32, false, due + ns(10)), refreshEnd + miss);
  const Tick early = due - ns(1000);
  EXPECT_EQ(m.access(addr(m, 0, 1, 1, 5), 32, false, early), early + miss);
  EXPECT_EQ(m.stats().refreshStalls, 1u);  // only the request that arrived during the refresh
  // Too close to the refresh to finish (and precharge) before it: after its end, never during it.
  const Tick late = due - ns(5);
  const Tick done = m.access(addr(m, 0, 2, 2, 5), 32, false, late);
  EXPECT_GE(done, refreshEnd + miss);
  EXPECT_LE(done, refreshEnd + miss + ns(T.tRRD_L));  // at most one ACT spacing behind the first
  EXPECT_EQ(m.stats().refreshStalls, 2u);
  EXPECT_EQ(m.stats().refreshes, 1u);
}

TEST(HbmTiming, IdlePseudoChannelRefreshesOnTimeAndClosesRows) {
  HbmParams p = hbmtest::params("hbm2e-3200", true);
  const HbmTiming& T = p.timing;
  HbmModel m(p);
  const Tick due = m.refreshDue(0, 0);
  m.access(addr(m, 0, 0, 0, 5), 32, false, 0);
  // After the refresh has run (quietly, on time) there is no delay, but the row is closed.
  const Tick arrival = due + ns(T.tRFC) + ns(10);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5, 64), 32, false, arrival),
            arrival + ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST));
  EXPECT_EQ(m.stats().refreshes, 1u);
  EXPECT_EQ(m.stats().refreshStalls, 0u);
  // Many intervals later, every refresh due in between has run.
  m.access(addr(m, 0, 0, 0, 5), 32, false, due + 100 * ns(T.tREFI) + ns(T.tRFC) + ns(1));
  EXPECT_EQ(m.stats().refreshes, 101u);
}

TEST(HbmTiming, BusyPseudoChannelPostponesRefresh) {
  for (int postpone : {0, 8}) {
    HbmParams p = hbmtest::params("hbm2e-3200", true);
    p.stacks = p.channelsPerStack = p.pseudoChannels = 1;
    p.capacityBytes = 1ull << 30;
    p.refreshPostpone = postpone;
    HbmModel m(p);
    // Keep the single pseudo-channel busy for about five refresh intervals.
    Tick t = 0;
    uint64_t a = 0;
    while (t < 5 * ns(p.timing.tREFI)) {
      t = m.access(a, 4096, false, t > ns(100) ? t - ns(100) : 0);
      a += 4096;
    }
    if (postpone == 0)
      EXPECT_GE(m.stats().refreshes, 4u);  // due at tREFI, 2 tREFI, ...
    else
      EXPECT_EQ(m.stats().refreshes, 0u);  // all postponed while busy
  }
}

TEST(HbmTiming, RefreshStaggerAndAlignment) {
  HbmParams p = hbmtest::params("hbm2e-3200", true);
  HbmModel staggered(p);
  const int n = p.numPseudoChannels();
  EXPECT_EQ(staggered.refreshDue(n - 1, 0), ns(p.timing.tREFI) / n);
  EXPECT_EQ(staggered.refreshDue(5, 3) - staggered.refreshDue(5, 2), ns(p.timing.tREFI));
  p.refreshStagger = false;
  HbmModel aligned(p);
  EXPECT_EQ(aligned.refreshDue(n - 1, 0), aligned.refreshDue(0, 0));
}

TEST(HbmTiming, ZeroBytesCostNothing) {
  HbmModel m(hbmtest::params());
  EXPECT_EQ(m.access(123, 0, false, ns(5)), ns(5));
  EXPECT_EQ(m.stats().segments, 0u);
}

}  // namespace
}  // namespace npusim

namespace npusim {
namespace {

TEST(HbmTiming, EarlierRequestCalledSecondFillsTheGapBeforeALaterOne) {
  // Reads timed at 2 us and 5 us are called first (HCCS writes timed ahead, decoupled
  // initiators): the data bus idles before them. A read of another bank group timed at 1 us,
  // called last, uses that idle time: it completes as if alone, not after the later reads.
  HbmParams p = hbmtest::params();
  const HbmTiming& T = p.timing;
  const Tick miss = ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST);
  HbmModel m(p);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5), 32, false, ns(2000)), ns(2000) + miss);
  EXPECT_EQ(m.access(addr(m, 0, 2, 2, 5), 32, false, ns(5000)), ns(5000) + miss);  // called before the next
  EXPECT_EQ(m.access(addr(m, 0, 1, 1, 5), 32, false, ns(1000)), ns(1000) + miss);
}

}  // namespace
}  // namespace npusim
