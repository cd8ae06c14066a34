// What each algorithm sends over each link: the bytes every device's DMA wrote into every peer,
// read from the "P2P in" slices of the trace, for the mesh (large and small AllReduce, on both
// sides of the 256 KB threshold), the ring, and timing-only runs.
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/hccl/hccl_test_util.h"

using nlohmann::json;
using npusim::test::Ranks;

namespace {

using Traffic = std::map<std::pair<int, int>, uint64_t>;  // (from device, to device) -> bytes

// Runs one 8-rank fp32 SUM AllReduce of `bytes` in a child process (the trace is complete at
// exit) and returns its trace.
json allReduceTrace(const char* algo, uint64_t bytes, const std::string& set = "") {
  std::string path = testing::TempDir() + "hccl_traffic_" + algo + std::to_string(bytes) + ".json";
  std::remove(path.c_str());
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("NPUSIM_TRACE", path.c_str(), 1);
    setenv("NPUSIM_HCCL_ALGO", algo, 1);
    npusim::test::configure(set);
    {
      Ranks k(8);
      std::vector<void*> in(8), out(8);
      for (uint32_t r = 0; r < 8; ++r) in[r] = k.alloc(r, bytes), out[r] = k.alloc(r, bytes);
      for (uint32_t r = 0; r < 8; ++r)
        EXPECT_EQ(HcclAllReduce(in[r], out[r], bytes / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k.comms[r],
                                k.streams[r]),
                  HCCL_SUCCESS);
      k.syncAll();
      k.destroy();
    }
    std::string().swap(path);
    std::exit(testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return json::parse(in);
}

// The peer-to-peer bytes per device pair of that AllReduce.
Traffic allReduceTraffic(const char* algo, uint64_t bytes, const std::string& set = "") {
  const json trace = allReduceTrace(algo, bytes, set);
  std::map<int, int> deviceOf;  // trace pid -> device
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name") {
      std::string n = e["args"]["name"];
      if (n.rfind("NPU ", 0) == 0) deviceOf[e["pid"]] = std::stoi(n.substr(4));
    }
  Traffic t;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "X" && e["name"] == "P2P in")
      t[{e["args"]["from_device"].get<int>(), deviceOf.at(e["pid"].get<int>())}] +=
          e["args"]["bytes"].get<uint64_t>();
  return t;
}

}  // namespace

TEST(HcclTraffic, MeshAllReduceSendsAQuarterToEveryPeer) {
  // Reduce-scatter pushes S/8 to each peer, the gather another S/8: S/4 per ordered pair.
  const uint64_t s = 8u << 20;
  Traffic t = allReduceTraffic("mesh", s);
  ASSERT_EQ(t.size(), 56u);
  for (auto& [pair, b] : t) EXPECT_EQ(b, s / 4) << pair.first << " -> " << pair.second;
}

TEST(HcclTraffic, SmallAllReduceGoesThroughRankZero) {
  // At the threshold: ranks 1..7 push their whole buffer to rank 0, which sends the result back.
  const uint64_t s = 256 * 1024;
  Traffic t = allReduceTraffic("mesh", s);
  ASSERT_EQ(t.size(), 14u);
  for (int r = 1; r < 8; ++r) {
    EXPECT_EQ((t[{r, 0}]), s);
    EXPECT_EQ((t[{0, r}]), s);
  }
  // 16 KB above it: the mesh path. Slices of S/8 rounded up to 16 KB are 48 KB, so ranks 6 and
  // 7 own none: rank r sends p's slice to p (reduce-scatter) and its own to p (gather).
  const uint64_t big = s + 16 * 1024, slice = 48 * 1024;
  auto len = [&](uint64_t p) { return std::min(big, (p + 1) * slice) - std::min(big, p * slice); };
  Traffic m = allReduceTraffic("mesh", big);
  EXPECT_EQ(m.size(), 54u);
  for (int r = 0; r < 8; ++r)
    for (int p = 0; p < 8; ++p)
      if (p != r) {
        EXPECT_EQ((m[{r, p}]), len(p) + len(r)) << r << " -> " << p;
      }
}

TEST(HcclTraffic, RingAllReduceSendsOnlyToTheNextRank) {
  // 2(n-1)/n of the buffer crosses each ring link, nothing else.
  const uint64_t s = 8u << 20;
  Traffic t = allReduceTraffic("ring", s);
  ASSERT_EQ(t.size(), 8u);
  for (int r = 0; r < 8; ++r) EXPECT_EQ((t[{r, (r + 1) % 8}]), 2 * 7 * s / 8) << r;
}

TEST(HcclTraffic, TimingOnlyRunMovesTheSameBytes) {
  const uint64_t s = 4u << 20;
  Traffic t = allReduceTraffic("mesh", s, "sim.functional=false");
  ASSERT_EQ(t.size(), 56u);
  for (auto& [pair, b] : t) EXPECT_EQ(b, s / 4);
}

TEST(HcclTraffic, TraceShowsSideStreamsAndArrowsBetweenRanks) {
  const json trace = allReduceTrace("mesh", 1u << 20);
  std::set<std::string> names;
  int hcclFlows = 0, waits = 0, reduces = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") names.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "s" && e["name"] == "hccl") hcclFlows++;
    bool task = e["ph"] == "X" && e.value("cat", "") == "task";  // not the DMA channel's slice
    if (task && e["name"] == "Notify Wait") waits++;
    if (task && e["name"] == "Reduce_Inline") reduces++;
  }
  for (int r = 0; r < 8; ++r)
    for (int p = 0; p < 8; ++p)
      if (p != r) {
        EXPECT_TRUE(names.count("HCCL rank " + std::to_string(r) + " side -> rank " + std::to_string(p)))
            << r << p;
      }
  EXPECT_EQ(reduces, 8 * 7);    // one inline-reduce push per ordered pair
  EXPECT_EQ(hcclFlows, waits);  // every wait was released by a record, with an arrow from it
  EXPECT_GT(waits, 8 * 7 * 4);  // Ack and Data both ways per pair and phase, plus fork/join
}
