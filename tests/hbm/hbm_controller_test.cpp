// Controller mechanisms of issue 14: the shared row command bus, the write queue with
// watermarks, per-bank refresh and bit-by-bit address maps. Expectations follow from the
// timing rules in docs/hbm.md.
#include <gtest/gtest.h>

#include <set>

#include "models/hbm/hbm_traffic.h"
#include "tests/hbm/hbm_test_util.h"

namespace npusim {
namespace {

using hbmtest::addr;
using hbmtest::ns;

// The reference device of docs/hbm.md: one HBM2 channel, 2 pseudo-channels, Vega timings.
HbmParams referenceDevice() {
  HbmParams p;
  p.timing = hbmTimingPreset("hbm2-2000-vega");
  p.stacks = 1;
  p.channelsPerStack = 1;
  p.pseudoChannels = 2;
  p.capacityBytes = 2ull << 30;
  p.addressMap = "pc-bit5";
  p.refresh = false;
  p.writeHigh = p.writeLow = 0;  // tests that want the write queue say so
  return p;
}

// Closed-loop 64 B requests at uniformly random addresses.
HbmTrafficSpec random64(uint64_t requests, int outstanding) {
  HbmTrafficSpec s;
  s.random = true;
  s.requestBytes = 64;
  s.requests = requests;
  s.outstanding = outstanding;
  return s;
}

TEST(HbmRowBus, PseudoChannelsOfAChannelShareTheRowCommandBus) {
  HbmParams p = hbmtest::params();
  const HbmTiming& T = p.timing;
  const Tick t0 = ns(1000);
  const Tick closedRead = ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST);
  // Pseudo-channels 0 and 1 are the two halves of channel 0: the second ACT waits for the
  // first to leave the row command bus (tACTcmd = 2 tCK).
  HbmModel m(p);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5), 32, false, t0), t0 + closedRead);
  EXPECT_EQ(m.access(addr(m, 1, 0, 0, 5), 32, false, t0), t0 + ns(T.tACTcmd) + closedRead);
  // Pseudo-channel 2 is on channel 1: no wait.
  EXPECT_EQ(m.access(addr(m, 2, 0, 0, 5), 32, false, t0), t0 + closedRead);
  EXPECT_DOUBLE_EQ(T.tACTcmd, 2 * T.tCK);
}

TEST(HbmRowBus, RandomReadsOfTheReferenceDeviceAreBoundByRowCommands) {
  // Every 64 B random read is a row conflict on both pseudo-channels: PRE (1 tCK) + ACT (2 tCK)
  // each, on the one row bus: 6 ns per 64 B, 10.67 GB/s at most, whatever the queue depth.
  HbmParams p = referenceDevice();
  p.reorderHoles = 32;
  HbmModel m(p);
  HbmTrafficResult r = runHbmTraffic(m, random64(40000, 256));
  const double bound = 64.0 / (6 * p.timing.tCK * 1e-9);
  EXPECT_LT(r.bytesPerSec, bound * 1.001);
  EXPECT_GT(r.bytesPerSec, 0.8 * bound);
}

TEST(HbmWriteQueue, WritesArePostedAndDrainedInBatchesBetweenWatermarks) {
  HbmParams p = hbmtest::params();
  p.writeHigh = 8;
  p.writeLow = 2;
  const HbmTiming& T = p.timing;
  HbmModel m(p);
  const Tick t0 = ns(1000);
  // Posted: taken at the pseudo-channel's data rate, nothing scheduled yet.
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(m.access(addr(m, 0, static_cast<uint32_t>(i % 4), 0, 3, 32 * (i / 4)), 32, true, t0),
              t0 + ns(T.tBURST) * static_cast<Tick>(i + 1));
  EXPECT_EQ(m.stats().writeBatches, 0u);
  EXPECT_EQ(m.stats().busyPerPc[0], 0u);
  // The 8th reaches the high mark: 6 drain (down to the low mark of 2), as one batch.
  m.access(addr(m, 0, 3, 0, 3, 32), 32, true, t0);
  EXPECT_EQ(m.stats().writeBatches, 1u);
  EXPECT_EQ(m.stats().busyPerPc[0], 6 * ns(T.tBURST));
  // The rest drains on demand; the last write data ends no earlier than 8 bursts after the
  // first could start (tRCDWR + tCWL).
  Tick end = m.drainWrites();
  EXPECT_EQ(m.stats().busyPerPc[0], 8 * ns(T.tBURST));
  EXPECT_GE(end, t0 + ns(T.tRCDWR) + ns(T.tCWL) + 8 * ns(T.tBURST));
}

TEST(HbmWriteQueue, BatchingTurnsTheBusAroundLessOnMixedStreams) {
  // 85 % reads in a sequential stream: without a queue the bus turns around at almost every
  // write (tWTR + tCL each time); with batches of 32 it turns twice per batch.
  HbmTrafficSpec s;
  s.requestBytes = 64;
  s.requests = 60000;
  s.readFraction = 0.85;
  HbmParams p = referenceDevice();
  HbmModel plain(p);
  const double inOrder = runHbmTraffic(plain, s).efficiency;
  p.writeHigh = 64;
  p.writeLow = 32;
  HbmModel queued(p);
  HbmTrafficResult r = runHbmTraffic(queued, s);
  EXPECT_GT(r.efficiency, inOrder + 0.2);
  // Turnaround cost per batch ~ 2 x (tWTR_L + tCL): the loss is a few % of peak.
  EXPECT_GT(r.efficiency, 0.80);
  EXPECT_LT(r.efficiency, 0.97);
}

TEST(HbmPerBankRefresh, OnlyTheRefreshingBankWaits) {
  HbmParams p = hbmtest::params("hbm2e-3200", true);
  p.perBankRefresh = true;
  const HbmTiming& T = p.timing;
  HbmModel m(p);
  m.access(addr(m, 0, 2, 2, 9), 32, false, 0);  // an earlier read: the bus is idle between reads
  // Pseudo-channel 0's phase is tREFI; bank i refreshes at tREFI + i * tREFI / 16 for tRFCsb.
  const Tick refi = ns(T.tREFI), during = refi + ns(10);
  const Tick closedRead = ns(T.tRCDRD) + ns(T.tCL) + ns(T.tBURST);
  EXPECT_EQ(m.access(addr(m, 0, 0, 0, 5), 32, false, during), refi + ns(T.tRFCsb) + closedRead);
  EXPECT_GT(m.stats().refreshStalls, 0u);
  // Bank 1 of group 0 (index 1) refreshes tREFI / 16 later: free now.
  EXPECT_EQ(m.access(addr(m, 0, 0, 1, 5), 32, false, during), during + closedRead);
}

TEST(HbmPerBankRefresh, RefreshCountFollowsEveryBanksSchedule) {
  HbmParams p = hbmtest::params("hbm2e-3200", true);
  p.perBankRefresh = true;
  HbmModel m(p);
  const Tick refi = ns(p.timing.tREFI);
  // Every bank of every pseudo-channel starts one refresh (REFSB) per tREFI on its own phase.
  const uint64_t banks = static_cast<uint64_t>(p.banksPerPseudoChannel());
  const uint64_t atTen = m.refreshesBefore(10 * refi), atEleven = m.refreshesBefore(11 * refi);
  EXPECT_EQ(atEleven - atTen, banks * static_cast<uint64_t>(p.numPseudoChannels()));
  EXPECT_EQ(m.refreshesBefore(0), 0u);
  // All-bank refresh: what the model performed.
  HbmParams a = hbmtest::params("hbm2e-3200", true);
  HbmModel all(a);
  all.access(0, 64, false, 10 * refi);
  EXPECT_EQ(all.refreshesBefore(10 * refi), all.stats().refreshes);
  EXPECT_GT(all.stats().refreshes, 0u);
}

TEST(HbmPerBankRefresh, RefreshShowsInTheLatencyTailOfAnIdleDevice) {
  // One read at a time at random addresses: median near the unloaded closed-bank latency,
  // the tail (a read that meets its bank's refresh) up to tRFCsb later.
  for (bool perBank : {false, true}) {
    HbmParams p = referenceDevice();
    p.refresh = true;
    p.perBankRefresh = perBank;
    HbmModel m(p);
    HbmTrafficResult r = runHbmTraffic(m, random64(20000, 1));
    const HbmTiming& T = p.timing;
    const double conflict =
        T.tRP + T.tRCDRD + T.tCL + T.tBURST + T.tACTcmd + T.tCK;  // 2nd PC waits on the row bus
    EXPECT_NEAR(tickToNs(r.latencyPercentile(0.5)), conflict, 6.0) << perBank;
    EXPECT_LT(tickToNs(r.latencyPercentile(0.5)), 60.0);  // tens of ns
    const double refreshCost = perBank ? T.tRFCsb : T.tRFC;
    EXPECT_GT(tickToNs(r.latencyPercentile(1.0)), conflict + 0.5 * refreshCost) << perBank;
    EXPECT_LT(tickToNs(r.latencyPercentile(1.0)), conflict + refreshCost + 60.0) << perBank;
  }
}

TEST(HbmAddressMapBits, PcBit5PutsThePseudoChannelOnBit5) {
  HbmParams p = referenceDevice();
  HbmAddressMap map(p);
  EXPECT_EQ(map.runBytes(), 32u);
  EXPECT_EQ(map.decode(0).pc, 0u);
  EXPECT_EQ(map.decode(32).pc, 1u);
  EXPECT_EQ(map.decode(64).bankGroup, 1u);
  EXPECT_EQ(map.decode(256).bank, 1u);
  EXPECT_EQ(map.decode(1024).byteInRow, 32u);  // then the column
  EXPECT_EQ(map.decode(32 * 1024).row, 1u);    // then the row
  // The same map given bit by bit, and as contiguous fields.
  HbmParams q = p;
  q.addressMap = "pc:5 bg:6-7 ba:8-9 co:10-14 ro:15-30";
  HbmParams r = p;
  r.addressMap = "bits:ro-co-ba-bg-pc";
  HbmAddressMap mq(q), mr(r);
  for (uint64_t a = 0; a < (1u << 20); a += 4099) {
    HbmAddressMap::Location x = map.decode(a), y = mq.decode(a), z = mr.decode(a);
    EXPECT_EQ(std::tie(x.pc, x.bankGroup, x.bank, x.row, x.byteInRow),
              std::tie(y.pc, y.bankGroup, y.bank, y.row, y.byteInRow));
    EXPECT_EQ(std::tie(x.pc, x.bankGroup, x.bank, x.row, x.byteInRow),
              std::tie(z.pc, z.bankGroup, z.bank, z.row, z.byteInRow));
    EXPECT_EQ(map.encode(x), a);
  }
}

TEST(HbmAddressMapBits, BadBitMapsAreRefusedWithTheReason) {
  auto error = [](const std::string& spec) {
    HbmParams p = referenceDevice();
    p.addressMap = spec;
    try {
      p.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("pc:5 bg:6-7 ba:8-9 co:10-14 ro:15-29").find("bit 30 is not assigned"), std::string::npos);
  EXPECT_NE(error("pc:5 bg:5-7 ba:8-9 co:10-14 ro:15-30").find("given twice"), std::string::npos);
  EXPECT_NE(error("pc:4 bg:5-7 ba:8-9 co:10-14 ro:15-30").find("outside"), std::string::npos);
  EXPECT_NE(error("px:5 bg:6-7 ba:8-9 co:10-14 ro:15-30").find("unknown field"), std::string::npos);
  EXPECT_NE(error("pc:5-6 bg:7 ba:8-9 co:10-14 ro:15-30").find("needs"), std::string::npos);
  EXPECT_EQ(error("ro:15-30 co:10-14 ba:8-9 bg:6-7 pc:5"), "");
}

// The table of docs/hbm.md at a smaller request count: each row within 5 % of the reference.
TEST(HbmReference, FourPatternsMatchTheCycleAccurateReference) {
  struct Row {
    bool random;
    double reads, reference;
  };
  for (const Row& row :
       {Row{false, 1.0, 29.74}, Row{true, 1.0, 9.91}, Row{false, 0.85, 26.4}, Row{true, 0.67, 9.64}}) {
    HbmParams p = referenceDevice();
    p.refresh = true;
    p.refreshStagger = false;  // both pseudo-channels of the channel refresh together
    p.writeHigh = 64;
    p.writeLow = 32;
    p.reorderHoles = 32;
    HbmModel m(p);
    HbmTrafficSpec s;
    s.random = row.random;
    s.readFraction = row.reads;
    s.requestBytes = 64;
    s.outstanding = 64;
    s.requests = 200000;
    HbmTrafficResult r = runHbmTraffic(m, s);
    // Random 67 % reads is a known miss (-7 %, docs/hbm.md): 8 % there, 5 % elsewhere.
    const double tolerance = row.random && row.reads < 1.0 ? 0.08 : 0.05;
    EXPECT_NEAR(r.bytesPerSec / 1e9, row.reference, tolerance * row.reference)
        << row.random << " " << row.reads;
  }
}

}  // namespace
}  // namespace npusim
