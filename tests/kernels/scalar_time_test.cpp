// A kernel's scalar work costs time on its core's scalar unit (docs/kernels.md, "Scalar work"):
// the source filter counts each loop's operations, the count is charged at
// aicore.scalar_cycles_per_op, and the loop itself runs natively at host speed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <ctime>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_k_scalar_float.h"
#include "aclrtlaunch_k_scalar_spin.h"
#include "aclrtlaunch_k_scalar_tiles.h"
#include "tests/aicore/aicore_test_util.h"

using aicore_test::Session;

namespace {

// What the filter counts in scalar_kernels.cpp: k_scalar_spin has 7 operations outside its
// loop and 6 per iteration (acc = acc * 3 + i; i < n; ++i; the branch).
constexpr double kSpinOnce = 7, kSpinPerIteration = 6;

double ghz() { return aicore_test::config().getFloat("aicore.freq_ghz"); }
double cyclesPerOp() { return aicore_test::config().getFloat("aicore.scalar_cycles_per_op"); }
// Device time before a kernel's first instruction (dispatch and start) and its per-block prologue.
double fixedMs() {
  const npusim::Config& cfg = aicore_test::config();
  return 1e-6 * (cfg.getFloat("sched.dispatch_ns") + cfg.getFloat("aicore.task_start_ns")) +
         cfg.getFloat("aicore.kernel_scalar_cycles") / (ghz() * 1e6);
}

uint64_t spinValue(uint64_t n) {
  uint64_t acc = 1;
  for (uint64_t i = 0; i < n; ++i) acc = acc * 3 + i;
  return acc;
}

struct DevBuf {
  void* p = nullptr;
  explicit DevBuf(size_t bytes) { EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS); }
  ~DevBuf() { aclrtFree(p); }
  template <class T>
  T get(size_t i = 0) {
    T v{};
    EXPECT_EQ(
        aclrtMemcpy(&v, sizeof v, static_cast<char*>(p) + i * sizeof v, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS);
    return v;
  }
};

}  // namespace

// 1.2e8 iterations of 6 operations at one cycle each: 400 ms on a 1.8 GHz core.
TEST(KernelScalarTime, BusyLoopTakesItsIterationsTimesCyclesPerIteration) {
  Session s;
  DevBuf out(64);
  const uint64_t n = 120000000;
  auto warm = [&] { ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scalar_spin)(1, s.stream, out.p, 10000), 0u); };
  auto spin = [&] { ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scalar_spin)(1, s.stream, out.p, n), 0u); };
  const double ms = aicore_test::deviceMs(s.stream, warm, spin);
  const double expected =
      fixedMs() + (kSpinOnce + kSpinPerIteration * static_cast<double>(n)) * cyclesPerOp() / (ghz() * 1e6);
  std::printf("k_scalar_spin(%llu): %.3f ms (expected %.3f ms)\n", static_cast<unsigned long long>(n), ms,
              expected);
  EXPECT_NEAR(ms, expected, 0.002 * expected);
  EXPECT_EQ(out.get<uint64_t>(), spinValue(n));  // and it computed what the loop computes
}

// Twice the iterations, twice the time; the same launch twice, the same time.
TEST(KernelScalarTime, TimeScalesWithIterationsAndIsDeterministic) {
  Session s;
  DevBuf out(64);
  auto timed = [&](uint64_t n) {
    auto warm = [&] { ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scalar_spin)(1, s.stream, out.p, 10000), 0u); };
    auto spin = [&] { ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scalar_spin)(1, s.stream, out.p, n), 0u); };
    return aicore_test::deviceMs(s.stream, warm, spin) - fixedMs();
  };
  const double a = timed(2000000), b = timed(4000000), again = timed(2000000);
  EXPECT_NEAR(b / a, 2.0, 0.01);
  EXPECT_EQ(a, again);
}

// The shape of hicann/runtime's LongOP: 2.5e8 iterations of a float recurrence (9 counted
// operations each) last 1.25 s on the device, so a 1000 ms stream-sync timeout expires
// (ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 507046, as the sample's README shows), while the host runs
// the loop natively in a few seconds of CPU time at most, not tens.
TEST(KernelScalarTime, LongLoopOutlastsASyncTimeoutAndRunsNatively) {
  Session s;
  DevBuf out(64);
  const std::clock_t cpu0 = std::clock();
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scalar_float)(1, s.stream, out.p, 10000, 25000), 0u);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s.stream, 1000), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeStream(s.stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const double cpuSec = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  std::printf("2.5e8-iteration float loop: %.2f s of CPU time\n", cpuSec);
  EXPECT_LT(cpuSec, 8.0);
  float temp = 0.0f;
  for (uint32_t i = 0; i < 10000; i++) {
    temp += 0.00002f;
    for (uint32_t j = 0; j < 25000; j++) {
      temp = temp * temp - 0.000002f;
      temp = temp > 1.0f ? 0.0f : temp;
    }
  }
  EXPECT_NEAR(out.get<float>(), temp, 1e-9);

  // A kernel that fits in the timeout completes within it.
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(k_scalar_float)(1, s.stream, out.p, 100, 25000), 0u);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s.stream, 1000), ACL_SUCCESS) << aclGetRecentErrMsg();
}

// Scalar work before each tile overlaps the copies and compute of the tiles before it: with
// about as much scalar work per tile as a tile's copy in, the kernel takes far less than the
// vector pipeline's time plus the scalar time, and no less than either.
TEST(KernelScalarTime, ScalarWorkOverlapsCopiesAndVectorWork) {
  Session s;
  const uint32_t blocks = 4, tile = 8192, tiles = 16, perBlock = tiles * tile, n = blocks * perBlock;
  DevBuf x(n * 4ull), z(n * 4ull), seeds(64);
  std::vector<float> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = static_cast<float>(i % 89);
  ASSERT_EQ(aclrtMemcpy(x.p, n * 4ull, in.data(), n * 4ull, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  auto timed = [&](uint32_t spin) {
    auto k = [&] {
      ASSERT_EQ(
          ACLRT_LAUNCH_KERNEL(k_scalar_tiles)(blocks, s.stream, x.p, z.p, seeds.p, perBlock, tile, spin), 0u);
    };
    return aicore_test::deviceMs(s.stream, k, k);
  };
  const uint32_t spin = 170;  // 6 x 170 cycles: about a 32 KiB tile's copy in at 32 B/cycle
  const double pipeline = timed(0), both = timed(spin);
  // Spin's 6 + 6 per iteration, the loop's 25 per tile.
  const double scalar = tiles * (6.0 + 6.0 * spin + 25.0) * cyclesPerOp() / (ghz() * 1e6);
  std::printf("k_scalar_tiles: vector pipeline %.2f us, scalar %.2f us, both %.2f us\n", pipeline * 1e3,
              scalar * 1e3, both * 1e3);
  EXPECT_GT(both, scalar);
  EXPECT_GT(both, pipeline);
  EXPECT_LT(both, pipeline + 0.5 * scalar);
  EXPECT_EQ(z.get<float>(n - 1), 2.0f * in[n - 1]);
  uint32_t seed = 0;
  for (uint32_t t = 0; t < tiles; ++t)
    for (uint32_t i = 0; i < spin; ++i) seed = seed * 5 + 1;
  EXPECT_EQ(seeds.get<uint32_t>(3), seed);
}
