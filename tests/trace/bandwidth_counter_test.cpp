#include "traces/bandwidth_counter.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "trace_test_util.h"

namespace npusim::trace {
namespace {

using testutil::byPhase;
using testutil::readEvents;
using testutil::TempFile;

// (ts in ns, value in GB/s) of every counter sample, in file order.
using Samples = std::vector<std::pair<long, double>>;

Samples samplesOf(const std::string& path, const std::string& name) {
  Samples out;
  for (const auto& e : byPhase(readEvents(path), "C")) {
    if (e["name"] != name) continue;
    out.emplace_back(std::lround(e["ts"].get<double>() * 1000.0), e["args"]["value"].get<double>());
  }
  return out;
}

void expectSamples(const Samples& got, const Samples& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].first, want[i].first) << "sample " << i;
    EXPECT_NEAR(got[i].second, want[i].second, 1e-9) << "sample " << i;
  }
}

class BandwidthCounterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(w.open(file.path, Level::Transaction));
    pid = w.process("NPU 0", 0);
  }
  Samples finish(const std::string& name = "bw") {
    w.close();
    return samplesOf(file.path, name);
  }
  TempFile file;
  TraceWriter w;
  int pid = 0;
};

TEST_F(BandwidthCounterTest, UniformTransferGivesItsRate) {
  // 64 KiB in 8 us is 8.192 GB/s in every 1 us window, then a drop to 0: one sample per change.
  BandwidthCounter c(&w, pid, "bw", kUs);
  c.add(4 * kUs, 12 * kUs, 65536);
  c.flushAll();
  expectSamples(finish(), {{4000, 8.192}, {12000, 0.0}});
  EXPECT_EQ(c.totalBytes(), 65536u);
}

TEST_F(BandwidthCounterTest, SpreadsBytesOverWindowsProportionally) {
  // 1000 bytes over [0.75 us, 2.75 us): 125 in window 0, 500 in window 1, 375 in window 2.
  BandwidthCounter c(&w, pid, "bw", kUs);
  c.add(750 * kNs, 2750 * kNs, 1000);
  c.flushAll();
  // bytes per 1 us window -> GB/s: 125 B/us = 0.125 GB/s.
  expectSamples(finish(), {{0, 0.125}, {1000, 0.5}, {2000, 0.375}, {3000, 0.0}});
}

TEST_F(BandwidthCounterTest, SplitsAcrossTwoWindowsAndSumsOverlaps) {
  BandwidthCounter c(&w, pid, "bw", 2 * kUs);
  c.add(1 * kUs, 3 * kUs, 4000);  // 2000 B in window 0, 2000 B in window 1
  c.add(2 * kUs, 4 * kUs, 4000);  // all in window 1
  c.flushAll();
  // 2000 B / 2 us = 1 GB/s; 6000 B / 2 us = 3 GB/s.
  expectSamples(finish(), {{0, 1.0}, {2000, 3.0}, {4000, 0.0}});
  EXPECT_EQ(c.totalBytes(), 8000u);
}

TEST_F(BandwidthCounterTest, InstantTransferCountsInItsWindow) {
  BandwidthCounter c(&w, pid, "bw", kUs);
  c.add(2500 * kNs, 2500 * kNs, 100);
  c.flushAll();
  expectSamples(finish(), {{2000, 0.1}, {3000, 0.0}});
}

TEST_F(BandwidthCounterTest, OneZeroSampleAfterActivityNoRunsOfZeros) {
  BandwidthCounter c(&w, pid, "bw", kUs);
  c.add(0, kUs, 1000);            // window 0
  c.add(5 * kUs, 6 * kUs, 2000);  // window 5, after four idle windows
  c.add(6 * kUs, 7 * kUs, 3000);  // window 6, contiguous
  c.flushAll();
  expectSamples(finish(), {{0, 1.0}, {1000, 0.0}, {5000, 2.0}, {6000, 3.0}, {7000, 0.0}});
}

TEST_F(BandwidthCounterTest, FlushBeforeEmitsOnlyFinishedWindowsInOrder) {
  BandwidthCounter c(&w, pid, "bw", kUs);
  const uint64_t base = w.eventsWritten();
  auto emitted = [&] { return w.eventsWritten() - base; };
  c.add(0, 2 * kUs, 2000);             // 1000 B in each of windows 0..1
  c.add(2 * kUs, 4 * kUs, 4000);       // 2000 B in each of windows 2..3
  c.flushBefore(2 * kUs + 999 * kNs);  // windows 0 and 1 have ended (one value); window 2 has not
  EXPECT_EQ(emitted(), 1u);
  c.flushBefore(4 * kUs);  // windows 2 and 3 end at 3 us and 4 us: one new value
  EXPECT_EQ(emitted(), 2u);
  c.flushBefore(4 * kUs);  // nothing new; window 4 has not ended yet
  EXPECT_EQ(emitted(), 2u);
  c.flushBefore(5 * kUs);  // window 4 ended idle: the graph drops to 0 right away
  EXPECT_EQ(emitted(), 3u);
  c.flushBefore(9 * kUs);  // and stays there without more samples
  c.flushAll();
  EXPECT_EQ(emitted(), 3u);
  expectSamples(finish(), {{0, 1.0}, {2000, 2.0}, {4000, 0.0}});
}

TEST_F(BandwidthCounterTest, LateBytesGoToTheFirstOpenWindow) {
  BandwidthCounter c(&w, pid, "bw", kUs);
  c.add(0, kUs, 1000);
  c.flushBefore(3 * kUs);            // emits window 0 and the drop at window 1
  c.add(500 * kNs, 500 * kNs, 500);  // reported late, for window 0
  c.flushAll();
  // Samples stay in time order: the late bytes appear in window 2, after the last sample.
  expectSamples(finish(), {{0, 1.0}, {1000, 0.0}, {2000, 0.5}, {3000, 0.0}});
  EXPECT_EQ(c.totalBytes(), 1500u);
}

TEST_F(BandwidthCounterTest, TwoCountersMakeTwoTracks) {
  BandwidthCounter rd(&w, pid, "HBM read GB/s", kUs);
  BandwidthCounter wr(&w, pid, "HBM write GB/s", kUs);
  rd.add(0, kUs, 1000);
  wr.add(0, 2 * kUs, 1000);
  rd.flushAll();
  wr.flushAll();
  w.close();
  expectSamples(samplesOf(file.path, "HBM read GB/s"), {{0, 1.0}, {1000, 0.0}});
  expectSamples(samplesOf(file.path, "HBM write GB/s"), {{0, 0.5}, {2000, 0.0}});
  for (const auto& e : byPhase(readEvents(file.path), "C")) EXPECT_EQ(e["pid"], pid);
}

TEST_F(BandwidthCounterTest, SameInputsSameSamples) {
  auto run = [this](const std::string& name) {
    BandwidthCounter c(&w, pid, name, 3 * kUs);
    for (int i = 0; i < 200; ++i) {
      const Tick s = static_cast<Tick>(i) * 1234567;
      c.add(s, s + 7654321, 1000 + static_cast<uint64_t>(i) * 13);
      c.flushBefore(s);
    }
    c.flushAll();
  };
  run("a");
  run("b");
  const Samples a = finish("a");
  const Samples b = samplesOf(file.path, "b");
  ASSERT_FALSE(a.empty());
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].first, b[i].first);
    EXPECT_EQ(a[i].second, b[i].second);  // bit-identical
    if (i > 0) {
      EXPECT_GT(a[i].first, a[i - 1].first);
    }
  }
}

TEST_F(BandwidthCounterTest, NeverAbovePeakBytesCarryOver) {
  // Peak 1 GB/s = 1000 B per 1 us window. 3000 B reported in window 0 show as 1 GB/s for three
  // windows: nothing is lost, nothing is above what the resource can move.
  BandwidthCounter c(&w, pid, "bw", kUs, 1e9);
  c.add(0, kUs, 3000);
  c.flushAll();
  expectSamples(finish(), {{0, 1.0}, {3000, 0.0}});
}

TEST_F(BandwidthCounterTest, ReadAndWriteShareOneBus) {
  // One 2 GB/s bus: 1500 B read and 1500 B written in window 0 exceed its 2000 B; each track
  // keeps its share (1 GB/s each) and the rest moves to window 1.
  BandwidthCounter c(&w, pid, std::vector<std::string>{"rd", "wr"}, kUs, 2e9);
  c.add(0, kUs, 1500, 0);
  c.add(0, kUs, 1500, 1);
  c.flushAll();
  w.close();
  expectSamples(samplesOf(file.path, "rd"), {{0, 1.0}, {1000, 0.5}, {2000, 0.0}});
  expectSamples(samplesOf(file.path, "wr"), {{0, 1.0}, {1000, 0.5}, {2000, 0.0}});
}

TEST(BandwidthCounterTaskLevel, KeptValuesNeverAddUpToMoreThanTheBus) {
  // Below transaction level a track keeps its value while it moves by 1 % of the peak or less. A
  // 100 GB/s bus: window 0 reads 50 and writes 49.5 GB/s; window 1 reads 49.1 (kept alone: 50)
  // and writes 50.9, so showing only the write would read 100.9. Both are written, the falling
  // read first, and the sum read after any sample stays within the bus.
  TempFile file;
  TraceWriter w;
  ASSERT_TRUE(w.open(file.path, Level::Task));
  const int pid = w.process("NPU 0", 0);
  BandwidthCounter c(&w, pid, std::vector<std::string>{"rd", "wr"}, kUs, 100e9);
  c.add(0, kUs, 50000, 0);
  c.add(0, kUs, 49500, 1);
  c.add(kUs, 2 * kUs, 49100, 0);
  c.add(kUs, 2 * kUs, 50900, 1);
  c.flushAll();
  w.close();
  double rd = 0, wr = 0;
  std::vector<std::string> order;
  for (const auto& e : byPhase(readEvents(file.path), "C")) {
    (e["name"] == "rd" ? rd : wr) = e["args"]["value"].get<double>();
    order.push_back(e["name"].get<std::string>() + "@" + std::to_string(std::lround(e["ts"].get<double>())));
    EXPECT_LE(rd + wr, 100.0 + 1e-9) << "after " << order.back();
  }
  expectSamples(samplesOf(file.path, "rd"), {{0, 50.0}, {1000, 49.1}, {2000, 0.0}});
  expectSamples(samplesOf(file.path, "wr"), {{0, 49.5}, {1000, 50.9}, {2000, 0.0}});
  EXPECT_EQ(order[2], "rd@1");  // window 1: the read falls before the write rises
}

TEST(BandwidthCounterNoTrace, CountsBytesWithoutAWriter) {
  BandwidthCounter none;
  none.add(0, 10, 5);
  none.flushBefore(100);
  none.flushAll();
  EXPECT_EQ(none.totalBytes(), 5u);

  TraceWriter closed;  // never opened
  BandwidthCounter c(&closed, 1, "bw", kUs);
  c.add(0, 10 * kUs, 1000);
  c.flushAll();
  EXPECT_EQ(c.totalBytes(), 1000u);
  EXPECT_EQ(closed.eventsWritten(), 0u);
}

}  // namespace
}  // namespace npusim::trace
