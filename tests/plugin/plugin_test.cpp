// Memory plug-ins (include/npusim/tlm_plugin.h): the example fixed-latency + bandwidth memory
// swapped in for the HBM times copies and operators as it dictates, with data still correct;
// a bad model name, library or factory is an error from aclInit, not a crash.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "npusim/tlm_plugin.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/runtime/sim_test_util.h"

namespace {

const std::string kFixed = std::string(NPUSIM_BINARY_DIR) + "/examples/plugins/libnpusim_fixed_memory.so";
const std::string kNull = std::string(NPUSIM_BINARY_DIR) + "/tests/plugin/libnpusim_null_memory.so";
const std::string kAt = std::string(NPUSIM_BINARY_DIR) + "/examples/plugins/libnpusim_at_memory.so";

// The example memory at 1 GB/s and 1 us: slow enough that its time dominates everything else.
constexpr double kGbps = 1.0;
constexpr double kLatencyNs = 1000.0;

void useFixedMemory() {
  setenv("NPUSIM_PLUGINS", kFixed.c_str(), 1);
  setenv("FIXED_MEMORY_GBPS", std::to_string(kGbps).c_str(), 1);
  setenv("FIXED_MEMORY_LATENCY_NS", std::to_string(kLatencyNs).c_str(), 1);
  npusim::test::configure("hbm.model=fixed");
}

// Milliseconds the device spends on what `launch` enqueues on `s`.
template <typename F>
float deviceMs(aclrtStream s, F launch) {
  return static_cast<float>(npusim::test::eventMs(s, launch));
}

// Copies through a 1 GB/s memory take its time for their bytes, and the data is correct.
void expectCopiesTakeTheMemorysTime() {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const uint64_t bytes = 1 << 20;
  std::vector<uint8_t> host(bytes), back(bytes, 0);
  std::iota(host.begin(), host.end(), 7);
  void *h = nullptr, *d0 = nullptr, *d1 = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, bytes), ACL_SUCCESS);
  std::copy(host.begin(), host.end(), static_cast<uint8_t*>(h));
  ASSERT_EQ(aclrtMalloc(&d0, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d1, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

  // H2D: the memory writes 1 MiB at 1 GB/s (PCIe alone would take ~45 us).
  float h2d = deviceMs(s, [&] { aclrtMemcpyAsync(d0, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s); });
  const double writeMs = static_cast<double>(bytes) / (kGbps * 1e9) * 1e3;
  EXPECT_GT(h2d, writeMs);
  EXPECT_LT(h2d, writeMs * 1.1);
  // D2D: it reads and writes 1 MiB, one access at a time: twice the bytes.
  float d2d = deviceMs(s, [&] { aclrtMemcpyAsync(d1, bytes, d0, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s); });
  EXPECT_GT(d2d, 2 * writeMs);
  EXPECT_LT(d2d, 2 * writeMs * 1.1);

  ASSERT_EQ(aclrtMemcpy(back.data(), bytes, d1, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, host);
  aclrtFree(d0);
  aclrtFree(d1);
  aclrtFreeHost(h);
  aclrtDestroyStream(s);
  aclFinalize();
}

// An operator through a 1 GB/s memory takes its time for the bytes it moves, and computes right.
void expectAnOperatorTakesTheMemorysTime() {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const int64_t n = 256 * 1024;
  aicore_test::DevTensor a({n}, ACL_FLOAT), b({n}, ACL_FLOAT), c({n}, ACL_FLOAT);
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n)), z(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<size_t>(i)] = static_cast<float>(i), y[static_cast<size_t>(i)] = 0.5f;
  ASSERT_EQ(aclrtMemcpy(a.dev, a.bytes, x.data(), a.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.dev, b.bytes, y.data(), b.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);

  // The vector cores read two inputs and write one output: 3 MiB through the 1 GB/s memory.
  float ms = deviceMs(s, [&] { aicore_test::add(a, b, c, s); });
  const double memMs = 3.0 * static_cast<double>(a.bytes) / (kGbps * 1e9) * 1e3;
  EXPECT_GT(ms, memMs);
  EXPECT_LT(ms, memMs * 1.1);

  ASSERT_EQ(aclrtMemcpy(z.data(), c.bytes, c.dev, c.bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int64_t i = 0; i < n; i += 997)
    EXPECT_FLOAT_EQ(z[static_cast<size_t>(i)], static_cast<float>(i) + 0.5f);
  aclrtDestroyStream(s);
  aclFinalize();
}

TEST(MemoryPlugin, CopiesTakeTheFixedMemorysTimeAndDataIsCorrect) {
  useFixedMemory();
  expectCopiesTakeTheMemorysTime();
}

TEST(MemoryPlugin, OperatorsTakeTheFixedMemorysTimeAndComputeCorrectly) {
  useFixedMemory();
  expectAnOperatorTakesTheMemorysTime();
}

// The approximately-timed example (examples/plugins/at_memory.cpp) at the same 1 GB/s: every
// access reaches it as 64 B pieces it buffers and serves at its bandwidth, so copies and an
// operator take the same time for their bytes.
void useAtMemory() {
  setenv("NPUSIM_PLUGINS", kAt.c_str(), 1);
  npusim::test::configure(
      fmt::format("hbm.model=at_memory,hbm.plugin.gbps={},hbm.plugin.latency_ns=100", kGbps));
}

TEST(MemoryPlugin, CopiesTakeTheAtMemorysTimeAndDataIsCorrect) {
  useAtMemory();
  expectCopiesTakeTheMemorysTime();
}

TEST(MemoryPlugin, OperatorsTakeTheAtMemorysTimeAndComputeCorrectly) {
  useAtMemory();
  expectAnOperatorTakesTheMemorysTime();
}

// aclInit fails with a message containing `what`, and later calls fail the same way.
void expectInitError(const std::string& what) {
  EXPECT_NE(aclInit(nullptr), ACL_SUCCESS);
  std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find(what), std::string::npos) << msg;
  EXPECT_NE(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST(MemoryPlugin, AnUnknownModelIsAnErrorFromAclInit) {
  unsetenv("NPUSIM_PLUGINS");
  npusim::test::configure("hbm.model=dramsys");
  expectInitError("no memory model 'dramsys' is registered");
}

TEST(MemoryPlugin, ALibraryThatFailsToLoadIsAnErrorFromAclInit) {
  setenv("NPUSIM_PLUGINS", "/nonexistent/libnope.so", 1);
  npusim::test::configure("");
  expectInitError("cannot load '/nonexistent/libnope.so'");
}

TEST(MemoryPlugin, AFactoryReturningNullIsAnErrorFromAclInit) {
  setenv("NPUSIM_PLUGINS", kNull.c_str(), 1);
  npusim::test::configure("hbm.model=null");
  expectInitError("the factory returned no socket for device 0");
}

TEST(MemoryPlugin, AnScReportFatalWhileBindingIsAnErrorFromAclInit) {
  setenv("NPUSIM_PLUGINS", kNull.c_str(), 1);
  npusim::test::configure("hbm.model=fatal");
  expectInitError("building the model of device 0 failed");
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("no configuration file given"), std::string::npos);
}

TEST(MemoryPlugin, AnScReportErrorWhileBindingIsAnErrorFromAclInit) {
  setenv("NPUSIM_PLUGINS", kNull.c_str(), 1);
  npusim::test::configure("hbm.model=error");
  expectInitError("bad memory spec");
}

TEST(MemoryPlugin, ABinderThatBindsNothingIsAnErrorFromAclInit) {
  setenv("NPUSIM_PLUGINS", kNull.c_str(), 1);
  npusim::test::configure("hbm.model=unbound");
  expectInitError("the binder did not bind npusim's socket for device 0");
}

// The model's parameters travel as hbm.plugin.<key>: a value the example refuses fails aclInit.
TEST(MemoryPlugin, PluginParametersReachTheModel) {
  setenv("NPUSIM_PLUGINS", kAt.c_str(), 1);
  npusim::test::configure("hbm.model=at_memory,hbm.plugin.gbps=-5");
  expectInitError("hbm.plugin.gbps must be a positive number");
}

// The process's exit ends the simulation: the model's end_of_simulation runs once per device,
// after aclFinalize or without it.
void runAndExit(bool finalize) {
  setenv("NPUSIM_PLUGINS", kNull.c_str(), 1);
  npusim::test::configure("hbm.model=eos");
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::exit(1);
  std::vector<uint8_t> h(4096, 1);
  void* d = nullptr;
  if (aclrtMalloc(&d, h.size(), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(d, h.size(), h.data(), h.size(), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
    std::exit(2);
  if (finalize) aclFinalize();
  std::exit(0);
}

TEST(MemoryPluginDeathTest, TheModelsEndOfSimulationRunsOnceAfterAclFinalize) {
  EXPECT_EXIT(runAndExit(true), testing::ExitedWithCode(0), "end_of_simulation of npusim.npu0.hbm0");
}

TEST(MemoryPluginDeathTest, TheModelsEndOfSimulationRunsOnceWithoutAclFinalize) {
  EXPECT_EXIT(runAndExit(false), testing::ExitedWithCode(0), "end_of_simulation of npusim.npu0.hbm0");
}

TEST(MemoryPlugin, RegistrationRefusesDuplicatesAndEmptyBinders) {
  auto b = [](tlm::tlm_initiator_socket<>&, const npusim::MemoryTargetInfo&) {};
  EXPECT_TRUE(npusim::registerMemoryModel("twice2", npusim::Protocol::LooselyTimed, b));
  EXPECT_FALSE(npusim::registerMemoryModel("twice2", npusim::Protocol::ApproximatelyTimed, b));
  EXPECT_FALSE(npusim::registerMemoryModel("builtin", npusim::Protocol::LooselyTimed, b));
  EXPECT_FALSE(npusim::registerMemoryModel("", npusim::Protocol::LooselyTimed, b));
  EXPECT_FALSE(npusim::registerMemoryModel("empty2", npusim::Protocol::LooselyTimed, nullptr));
  auto f = [](const std::string&, int) -> tlm::tlm_target_socket<>* { return nullptr; };
  EXPECT_FALSE(npusim::registerMemoryTarget("twice2", f));  // one name space for both contracts
}

TEST(MemoryPlugin, RegistrationRefusesDuplicatesAndEmptyFactories) {
  auto f = [](const std::string&, int) -> tlm::tlm_target_socket<>* { return nullptr; };
  EXPECT_TRUE(npusim::registerMemoryTarget("twice", f));
  EXPECT_FALSE(npusim::registerMemoryTarget("twice", f));
  EXPECT_FALSE(npusim::registerMemoryTarget("builtin", f));
  EXPECT_FALSE(npusim::registerMemoryTarget("", f));
  EXPECT_FALSE(npusim::registerMemoryTarget("empty", nullptr));
}

}  // namespace

namespace {

// The example AT memory at 100 GB/s keeps its data path busy: the DMA channel's window of bursts
// and every core's load and store are in flight at once, so a copy and an operator move their
// bytes (reads + writes) in no less than bytes / 100 GB/s and within 85 % of that rate
// (the bench's 256 MiB and 64 MiB figures: 99.9 % and 99.4 %).
void expectAtMemoryRate(bool copy) {
  setenv("NPUSIM_PLUGINS", kAt.c_str(), 1);
  npusim::test::configure("sim.functional=false,hbm.model=at_memory,hbm.plugin.gbps=100");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const uint64_t bytes = 8 << 20;
  double moved = 0, ms = 0;
  if (copy) {
    void *src = nullptr, *dst = nullptr;
    ASSERT_EQ(aclrtMalloc(&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    moved = 2.0 * static_cast<double>(bytes);
    ms = deviceMs(s, [&] { aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s); });
  } else {
    const int64_t n = static_cast<int64_t>(bytes / 4);
    aicore_test::DevTensor a({n}, ACL_FLOAT), b({n}, ACL_FLOAT), c({n}, ACL_FLOAT);
    moved = 3.0 * static_cast<double>(bytes);
    ms = deviceMs(s, [&] { aicore_test::add(a, b, c, s); });
  }
  const double idealMs = moved / 100e9 * 1e3;
  EXPECT_GE(ms, idealMs);
  EXPECT_LE(ms, idealMs / 0.85);
  aclrtDestroyStream(s);
  aclFinalize();
}

TEST(MemoryPlugin, ACopyKeepsTheAtMemoryBusy) { expectAtMemoryRate(true); }

TEST(MemoryPlugin, AnOperatorKeepsTheAtMemoryBusy) { expectAtMemoryRate(false); }

// A peer copy into the AT memory keeps the source channel's window as a local one does: the
// peer's memory port takes each burst's write as posted and answers the channel when the model
// completed it, instead of holding the delivery (and the channel) until then. Both memories run
// at `gbps`, below the link (PCIe Gen4 x16: ~24 GB/s of writes; HCCS: 44.8 GB/s of data), so the
// copy moves its bytes (read on device 0, written on device 1, at once) within 85 % of that rate,
// and they arrive intact.
void expectPeerCopyAtAtMemoryRate(const char* preset, double gbps) {
  setenv("NPUSIM_PLUGINS", kAt.c_str(), 1);
  npusim::test::configure(fmt::format("hbm.model=at_memory,hbm.plugin.gbps={}", gbps), preset);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  const uint64_t bytes = 8 << 20;
  void *src = nullptr, *dst = nullptr;
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<uint8_t> host(bytes), back(bytes, 0);
  std::iota(host.begin(), host.end(), 11);
  ASSERT_EQ(aclrtMemcpy(src, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const double ms =
      deviceMs(s, [&] { aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s); });
  const double idealMs = static_cast<double>(bytes) / (gbps * 1e9) * 1e3;
  EXPECT_GE(ms, idealMs);
  EXPECT_LE(ms, idealMs / 0.85);
  ASSERT_EQ(aclrtMemcpy(back.data(), bytes, dst, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, host);
  aclrtDestroyStream(s);
  aclFinalize();
}

TEST(MemoryPlugin, APeerCopyOverPcieKeepsTheAtMemoryBusy) { expectPeerCopyAtAtMemoryRate("910b", 10); }

TEST(MemoryPlugin, APeerCopyOverHccsKeepsTheAtMemoryBusy) { expectPeerCopyAtAtMemoryRate("910b-hccs", 20); }

}  // namespace
