// Counters never above physics (issue 14 part 3): every bandwidth counter in a trace stays at or
// below the peak of the resource it shows, and a device's HBM read + write together stay below
// the one data bus they share. The workload loads HBM from both sides at once: D2D copies on
// several streams (each reads and writes HBM), host copies, and a large Add followed by a matmul.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"

using json = nlohmann::json;

namespace {

aclTensor* tensor(int64_t rows, int64_t cols, aclDataType t, void* dev) {
  int64_t shape[] = {rows, cols};
  int64_t strides[] = {cols, 1};
  return aclCreateTensor(shape, 2, t, strides, 0, ACL_FORMAT_ND, shape, 2, dev);
}

#define OK(expr) ASSERT_EQ(static_cast<int>(expr), 0) << #expr << ": " << aclGetRecentErrMsg()

json readJson(const std::string& path) {
  std::ifstream in(path);
  json j;
  in >> j;
  return j;
}

}  // namespace

// The workload; run in a child process by the test below (a simulation cannot restart).
TEST(CounterPeak, Workload) {
  if (!std::getenv("NPUSIM_TRACE")) GTEST_SKIP() << "run by CounterPeak.NoCounterAbovePeak";
  OK(aclInit(nullptr));
  OK(aclrtSetDevice(0));
  constexpr int kStreams = 4;
  const size_t n = 32u << 20;
  aclrtStream s[kStreams];
  void *src, *dst[kStreams], *host;
  OK(aclrtMalloc(&src, n, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMallocHost(&host, n));
  for (int k = 0; k < kStreams; ++k) {
    OK(aclrtCreateStream(&s[k]));
    OK(aclrtMalloc(&dst[k], n, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  OK(aclrtMemcpyAsync(src, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, s[0]));
  OK(aclrtSynchronizeStream(s[0]));
  for (int k = 0; k < kStreams; ++k)
    OK(aclrtMemcpyAsync(dst[k], n, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s[k]));
  OK(aclrtMemcpyAsync(host, n, dst[0], n, ACL_MEMCPY_DEVICE_TO_HOST, s[1]));

  // A large Add (fp32, 4096 x 2048 = 32 MiB per tensor) then a matmul on stream 0.
  aclTensor* a = tensor(4096, 2048, ACL_FLOAT, dst[0]);
  aclTensor* b = tensor(4096, 2048, ACL_FLOAT, dst[1]);
  aclTensor* c = tensor(4096, 2048, ACL_FLOAT, dst[2]);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  OK(aclnnAddGetWorkspaceSize(a, b, alpha, c, &ws, &ex));
  ASSERT_EQ(ws, 0u);
  OK(aclnnAdd(nullptr, 0, ex, s[0]));
  aclTensor* ma = tensor(2048, 2048, ACL_FLOAT16, dst[3]);
  aclTensor* mb = tensor(2048, 2048, ACL_FLOAT16, src);
  aclTensor* mc = tensor(2048, 2048, ACL_FLOAT16, dst[1]);
  OK(aclnnMatmulGetWorkspaceSize(ma, mb, mc, 0, &ws, &ex));
  void* workspace = nullptr;
  if (ws) {
    OK(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  OK(aclnnMatmul(workspace, ws, ex, s[0]));
  OK(aclrtSynchronizeDevice());
  for (aclTensor* t : {a, b, c, ma, mb, mc}) aclDestroyTensor(t);
  aclDestroyScalar(alpha);
  OK(aclFinalize());
}

TEST(CounterPeak, NoCounterAbovePeak) {
  const std::string dir = testing::TempDir();
  const std::string trace = dir + "peak_trace.json", stats = dir + "peak_stats.json";
  std::string cmd = "NPUSIM_TRACE=" + trace + " NPUSIM_STATS=" + stats + " " +
                    testing::internal::GetArgvs()[0] + " --gtest_filter=CounterPeak.Workload > " + dir +
                    "peak.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const json t = readJson(trace), st = readJson(stats);

  // Peaks (GB/s) by process and counter name, from the statistics' resources.
  std::map<int, std::string> processes;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name") processes[e["pid"].get<int>()] = e["args"]["name"];
  auto pciePeak = [&](const std::string& channel) {
    EXPECT_TRUE(st["pcie"].contains(channel)) << "no statistics for " << channel;
    return st["pcie"].value(channel, json::object()).value("peak_GBps", 0.0);
  };
  auto peakOf = [&](const std::string& proc, const std::string& name) -> double {
    const std::string suffix = " GB/s";
    if (proc == "PCIe fabric") return pciePeak(name.substr(0, name.size() - suffix.size()));
    int d = -1;
    EXPECT_EQ(std::sscanf(proc.c_str(), "NPU %d", &d), 1) << proc;
    if (name == "PCIe up GB/s") return pciePeak(proc + " link up");
    if (name == "PCIe down GB/s") return pciePeak(proc + " link down");
    int to = -1;
    if (std::sscanf(name.c_str(), "HCCS to NPU %d", &to) == 1)  // one HCCS link direction
      return st["hccs"].value(fmt::format("HCCS {}->{}", d, to), json::object()).value("peak_GBps", 0.0);
    if (name == "HBM read GB/s" || name == "HBM write GB/s")
      return st["devices"][d]["hbm"].value("peak_GBps", 0.0);
    ADD_FAILURE() << "counter '" << proc << "/" << name << "' has no known resource";
    return 0;
  };

  // Walk every counter in time order; HBM read and write of one device add up on one bus.
  std::map<std::pair<std::string, std::string>, double> value;  // current value per track
  std::map<std::string, double> maxSeen;
  int samples = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] != "C") continue;
    ++samples;
    const std::string proc = processes[e["pid"].get<int>()], name = e["name"];
    const double v = e["args"]["value"].get<double>(), peak = peakOf(proc, name);
    ASSERT_GT(peak, 0.0) << proc << "/" << name;
    value[{proc, name}] = v;
    EXPECT_LE(v, peak + 1e-9) << proc << "/" << name << " at " << e["ts"] << " us";
    if (name.rfind("HBM ", 0) == 0) {
      const double bus = value[{proc, "HBM read GB/s"}] + value[{proc, "HBM write GB/s"}];
      EXPECT_LE(bus, peak * 1.001) << proc << " HBM read + write at " << e["ts"] << " us";
      maxSeen[proc + " HBM"] = std::max(maxSeen[proc + " HBM"], bus / peak);
    }
  }
  ASSERT_GT(samples, 20);
  // The workload does load HBM: the check is not vacuous.
  EXPECT_GT(maxSeen["NPU 0 HBM"], 0.3);
}
