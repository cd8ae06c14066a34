// The norm engine's cost model on the simulator: memory-bound norms, timed against the HBM
// model's streaming time for exactly the bytes they must move (measured on a fresh HbmModel by
// tests/aicore/roofline.h, no number assumed). Like the other multi-pass vector operators
// (more_ops_roofline_test.cpp) they may not beat that time and stay below twice it; and the time
// grows with the bytes: a norm over twice the rows takes 1.8 to 2.2 times as long.
#include <cstdio>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "tests/aicore/aicore_test_util.h"
#include "tests/aicore/roofline.h"

using namespace aicore_test;

namespace {

double seconds(const Phase1& p1, Phase2 p2, aclrtStream s) {
  return 1e-3 * deviceMs(
                    s, [&] { launchOp(p1, p2, s); }, [&] { launchOp(p1, p2, s); });
}

double ratio(const char* name, double sec, uint64_t readBytes, uint64_t writeBytes) {
  const double bound = roofline::memorySec(config(), readBytes, writeBytes);
  std::printf("%-14s %9.1f us, HBM bound %9.1f us, ratio %.3f\n", name, sec * 1e6, bound * 1e6, sec / bound);
  return sec / bound;
}

void expectMultiPass(double r) {
  EXPECT_GE(r, 1.0);
  EXPECT_LE(r, 2.0);
}

}  // namespace

TEST(NormRoofline, NormsStreamAtHbmRateAndScaleWithTheirBytes) {
  npusim::test::configure("sim.functional=false");
  Session ss;
  aclrtStream s = ss.stream;
  const int64_t C = 4096;
  double addRms[2] = {};
  for (int i = 0; i < 2; ++i) {
    const int64_t R = 2048 << i;
    DevTensor x1({R, C}, ACL_FLOAT16), x2({R, C}, ACL_FLOAT16), g({C}, ACL_FLOAT16), y({R, C}, ACL_FLOAT16),
        xo({R, C}, ACL_FLOAT16), rstd({R, 1}, ACL_FLOAT);
    addRms[i] = seconds(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnAddRmsNormGetWorkspaceSize(x1.t, x2.t, g.t, 1e-6, y.t, rstd.t, xo.t, ws, ex);
        },
        aclnnAddRmsNorm, s);
    expectMultiPass(
        ratio("AddRmsNorm", addRms[i], x1.bytes + x2.bytes + g.bytes, y.bytes + xo.bytes + rstd.bytes));
  }
  EXPECT_GE(addRms[1] / addRms[0], 1.8);
  EXPECT_LE(addRms[1] / addRms[0], 2.2);

  // GroupNorm [32, 512, 64*64] fp16 in 32 groups; BatchNorm training on the same tensor.
  DevTensor x({32, 512, 4096}, ACL_FLOAT16), y({32, 512, 4096}, ACL_FLOAT16), gamma({512}, ACL_FLOAT16),
      beta({512}, ACL_FLOAT16), mean({32, 32}, ACL_FLOAT16), rstd({32, 32}, ACL_FLOAT16),
      sm({512}, ACL_FLOAT16), si({512}, ACL_FLOAT16);
  expectMultiPass(ratio("GroupNorm",
                        seconds(
                            [&](uint64_t* ws, aclOpExecutor** ex) {
                              return aclnnGroupNormGetWorkspaceSize(x.t, gamma.t, beta.t, 32, 512, 4096, 32,
                                                                    1e-5, y.t, mean.t, rstd.t, ws, ex);
                            },
                            aclnnGroupNorm, s),
                        x.bytes + gamma.bytes + beta.bytes, y.bytes + mean.bytes + rstd.bytes));
  expectMultiPass(ratio("BatchNorm",
                        seconds(
                            [&](uint64_t* ws, aclOpExecutor** ex) {
                              return aclnnBatchNormGetWorkspaceSize(x.t, gamma.t, beta.t, nullptr, nullptr,
                                                                    true, 0.1, 1e-5, y.t, sm.t, si.t, ws, ex);
                            },
                            aclnnBatchNorm, s),
                        x.bytes + gamma.bytes + beta.bytes, y.bytes + sm.bytes + si.bytes));
}
