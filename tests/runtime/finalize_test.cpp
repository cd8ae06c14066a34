// aclFinalize ends the simulation and a later aclInit starts a fresh one in the same process
// (docs/architecture.md "Ending"): the outputs are complete at aclFinalize, the second
// simulation times the same work exactly as the first, time goes on across them, and the
// handles of the ended simulation are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/runtime/sim_test_util.h"

using npusim::test::configure;
using npusim::test::eventMs;

namespace {

struct CycleTimes {
  double asyncMs = 0;  // an H2D copy between two events on a stream
  double syncNs = 0;   // a synchronous D2H copy on the simulated host clock
  double startNs = 0;  // host clock after aclInit
  double endNs = 0;    // host clock after aclFinalize
  uint64_t checksum = 0;
};

// One init cycle: copies 4 MiB to the device and back, checks the data, and finalises.
CycleTimes runCycle(uint8_t fill) {
  CycleTimes c;
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  c.startNs = npusimHostTimeNs();
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const size_t n = 4u << 20;
  void* host = nullptr;
  void* dev = nullptr;
  EXPECT_EQ(aclrtMallocHost(&host, n), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::memset(host, fill, n);
  c.asyncMs = eventMs(s, [&] { aclrtMemcpyAsync(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, s); });
  std::vector<uint8_t> back(n, 0);
  const double before = npusimHostTimeNs();
  EXPECT_EQ(aclrtMemcpy(back.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  c.syncNs = npusimHostTimeNs() - before;
  for (uint8_t b : back) c.checksum += b;
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  c.endNs = npusimHostTimeNs();
  return c;
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
  // A trace still open (the process goes on) waits for the end of its event list.
  if (j.is_discarded() && s.rfind("{\"traceEvents\":[", 0) == 0)
    j = nlohmann::json::parse(s + "]}", nullptr, false);
  return j;
}

uint64_t streamTasks(const nlohmann::json& stats) {
  uint64_t tasks = 0;
  for (const auto& st : stats["streams"]) tasks += st["tasks"].get<uint64_t>();
  return tasks;
}

}  // namespace

TEST(Finalize, ASecondInitCycleTimesTheSameWorkAsTheFirst) {
  configure("");
  const CycleTimes first = runCycle(7);
  const CycleTimes second = runCycle(9);
  EXPECT_GT(first.asyncMs, 0.0);
  EXPECT_GT(first.syncNs, 0.0);
  // A fresh platform from the same configuration, its clocks from 0 again: the same times.
  EXPECT_EQ(first.asyncMs, second.asyncMs);
  EXPECT_EQ(first.syncNs, second.syncNs);
  EXPECT_EQ(first.startNs, second.startNs);
  EXPECT_EQ(first.endNs, second.endNs);
  EXPECT_LT(second.startNs, first.endNs);
  // The data are the second cycle's own.
  EXPECT_EQ(first.checksum, 7ull * (4u << 20));
  EXPECT_EQ(second.checksum, 9ull * (4u << 20));
}

TEST(Finalize, TheSecondCycleReadsTheConfigurationAgain) {
  configure("");
  const CycleTimes gen4 = runCycle(1);
  configure("pcie.gen=5");
  const CycleTimes gen5 = runCycle(1);
  // PCIe Gen5 doubles the link's rate: the host-to-device copy takes clearly less time.
  EXPECT_LT(gen5.asyncMs, gen4.asyncMs * 0.75);
}

TEST(Finalize, CallsBetweenFinalizeAndInitAreRefused) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclFinalize ended the simulation"), std::string::npos);
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  // Callback registrations belong to the process: they are made before the next aclInit.
  int finalized = 0;
  auto count = [](void* n) -> aclError {
    ++*static_cast<int*>(n);
    return ACL_SUCCESS;
  };
  EXPECT_EQ(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, count, &finalized), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(finalized, 1);
  EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, count), ACL_SUCCESS);
}

TEST(Finalize, HandlesOfAnEndedSimulationAreRefused) {
  configure("");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  aclrtContext ctx = nullptr;
  void* dev = nullptr;
  void* host = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);  // releases what the program did not

  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  // Before anything new is created, so no new object can sit at an old handle's address.
  EXPECT_EQ(aclrtSetCurrentContext(ctx), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("destroyed by aclFinalize"), std::string::npos);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRecordEvent(event, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("destroyed by aclFinalize"), std::string::npos);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_RT_PARAM_INVALID);
  std::vector<uint8_t> h(4096, 3);
  EXPECT_NE(aclrtMemcpy(dev, 4096, h.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  // The new simulation works normally beside the refused handles.
  void* fresh = nullptr;
  ASSERT_EQ(aclrtMalloc(&fresh, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(fresh, 4096, h.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(fresh), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, TraceAndStatisticsAreCompleteAtEachFinalize) {
  configure("trace.level=api");
  const std::string trace = ::testing::TempDir() + "finalize.trace.json";
  const std::string stats = ::testing::TempDir() + "finalize.stats.json";
  setenv("NPUSIM_TRACE", trace.c_str(), 1);
  setenv("NPUSIM_STATS", stats.c_str(), 1);
  const CycleTimes first = runCycle(1);
  nlohmann::json s1 = readJson(stats);
  ASSERT_FALSE(s1.is_discarded());
  const uint64_t tasks1 = streamTasks(s1);
  EXPECT_GE(tasks1, 2u);  // the async copy and the synchronous one, at least
  nlohmann::json t1 = readJson(trace);
  ASSERT_FALSE(t1.is_discarded()) << "the trace is not readable after aclFinalize";

  runCycle(2);
  nlohmann::json s2 = readJson(stats);
  ASSERT_FALSE(s2.is_discarded());
  EXPECT_EQ(streamTasks(s2), tasks1);  // the second simulation's own statistics, same work
  nlohmann::json t2 = readJson(trace);
  ASSERT_FALSE(t2.is_discarded());
  // One trace for both: every call of the second cycle lies after the first cycle's end.
  std::vector<double> memcpyStarts;
  int npuProcesses = 0;
  for (const auto& e : t2["traceEvents"]) {
    if (e.value("name", "") == "aclrtMemcpy" && e.value("ph", "") == "X")
      memcpyStarts.push_back(e["ts"].get<double>());
    if (e.value("name", "") == "process_name" && e["args"].value("name", "").rfind("NPU 0", 0) == 0)
      ++npuProcesses;
  }
  ASSERT_EQ(memcpyStarts.size(), 2u);
  EXPECT_LT(memcpyStarts[0], first.endNs / 1000.0);
  // The second simulation's clocks start at 0 again; the trace shifts it past the first's end
  // (rounded up to a microsecond), so the same call lies exactly that much later.
  EXPECT_NEAR(memcpyStarts[1] - memcpyStarts[0], std::ceil(first.endNs / 1000.0), 1e-6);
  EXPECT_EQ(npuProcesses, 2);  // each simulation's device is a process of its own
}
