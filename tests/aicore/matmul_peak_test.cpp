// A large fp16 matmul is compute bound: it runs at >= 85 % of the cube peak of the configured
// cores, with the L2 serving the operand panels that the blocks share (docs/aicore.md).
#include <cstdio>

#include "tests/aicore/aicore_test_util.h"

using namespace aicore_test;

namespace {

double cubePeakMacsPerSec() {
  const npusim::Config& c = config();
  return static_cast<double>(c.getInt("aicore.cube_cores")) * c.getFloat("aicore.cube_macs_per_cycle") *
         c.getFloat("aicore.freq_ghz") * 1e9;
}

// Device time of an n x n x n matmul of `dt` (cubeMathType 0), in seconds.
double matmulSeconds(int64_t n, aclDataType dt, const Session& s) {
  DevTensor a({n, n}, dt), b({n, n}, dt), c({n, n}, dt);
  return 1e-3 * deviceMs(
                    s.stream, [&] { matmul(a, b, c, s.stream); }, [&] { matmul(a, b, c, s.stream); });
}

}  // namespace

TEST(MatmulPeak, Fp16At4096CubedReaches85PercentOfCubePeak) {
  npusim::test::configure("sim.functional=false");
  Session s;
  const double n = 4096, sec = matmulSeconds(4096, ACL_FLOAT16, s);
  const double fraction = n * n * n / sec / cubePeakMacsPerSec();
  std::printf("fp16 4096^3: %.1f us on the device, %.1f %% of the cube peak (%.0f TFLOPS of %.0f)\n",
              sec * 1e6, 100 * fraction, 2 * n * n * n / sec / 1e12, 2 * cubePeakMacsPerSec() / 1e12);
  EXPECT_GE(fraction, 0.85);
  EXPECT_LE(fraction, 1.0);  // nothing runs faster than the cube
}

TEST(MatmulPeak, PeakFollowsTheConfiguredCores) {
  // Half the cube cores: the peak halves and the matmul still reaches >= 85 % of it (the tiling
  // plans its L2 waves for 24 cores; the bytes it fetches are the same).
  npusim::test::configure("sim.functional=false,aicore.cube_cores=12");
  Session s;
  const double n = 4096, sec = matmulSeconds(4096, ACL_FLOAT16, s);
  const double fraction = n * n * n / sec / cubePeakMacsPerSec();
  std::printf("fp16 4096^3 on 12 cube cores: %.1f us, %.1f %% of their peak\n", sec * 1e6, 100 * fraction);
  EXPECT_GE(fraction, 0.85);
  EXPECT_LE(fraction, 1.0);
}

TEST(MatmulPeak, TrueFp32TakesTwoCubeSlotsAndHf32One) {
  // The aclnn layer counts a true fp32 MAC as two fp16 MAC slots (the cube's 32-byte K step
  // holds 8 fp32 values instead of 16 fp16), and HF32 at the fp16 rate.
  npusim::test::configure("sim.functional=false");
  Session s;
  const int64_t n = 2048;
  const double f16 = matmulSeconds(n, ACL_FLOAT16, s), f32 = matmulSeconds(n, ACL_FLOAT, s);
  DevTensor a({n, n}, ACL_FLOAT), b({n, n}, ACL_FLOAT), c({n, n}, ACL_FLOAT);
  auto hf32 = [&] {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnMatmulGetWorkspaceSize(a.t, b.t, c.t, 3, &ws, &ex), 0) << aclGetRecentErrMsg();
    ASSERT_EQ(aclnnMatmul(nullptr, ws, ex, s.stream), 0);
  };
  const double h32 = 1e-3 * deviceMs(s.stream, hf32, hf32);
  std::printf("2048^3: fp16 %.1f us, fp32 %.1f us (x%.2f), hf32 %.1f us (x%.2f)\n", f16 * 1e6, f32 * 1e6,
              f32 / f16, h32 * 1e6, h32 / f16);
  EXPECT_NEAR(f32 / f16, 2.0, 0.2);
  // HF32: the fp16 MAC rate, but twice the operand bytes to fetch: no faster than fp16, and far
  // from true fp32's two cube slots per MAC.
  EXPECT_GE(h32 / f16, 0.99);
  EXPECT_LE(h32 / f16, 1.3);
}
