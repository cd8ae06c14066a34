// aclnnGroupNormSiluQuant (group_norm_silu_quant.cpp) against the doc's group norm, silu and
// quantisation evaluated in the test in fp64: fp16/bf16, per-tensor and per-channel quantScale,
// optional gamma/beta, saturation, and the documented error codes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_group_norm_silu_quant.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

}  // namespace

TEST(GroupNormSiluQuant, AgainstDefinition) {
  std::mt19937 g(12);
  const int64_t N = 2, C = 4, HW = 6, G = 2;
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (int64_t nScale : {int64_t{1}, C}) {
      HostTensorBuf x(dt, {N, C, 2, 3}), gamma(dt, {C}), beta(dt, {C}), qs(ACL_FLOAT, {nScale}),
          out(ACL_INT8, {N, C, 2, 3}), mean(dt, {N, G}), rstd(dt, {N, G});
      x.fillRandom(g, -3, 3);
      gamma.fillRandom(g, 0.5, 2);
      beta.fillRandom(g, -1, 1);
      qs.fillRandom(g, 0.005, 0.01);  // large quotients: some saturate at -128 / 127
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnGroupNormSiluQuantGetWorkspaceSize(x.get(), gamma.get(), beta.get(), qs.get(),
                                                                 G, 1e-5, true, out.get(), mean.get(),
                                                                 rstd.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      const std::string what = "dtype " + std::to_string(dt) + " scales " + std::to_string(nScale);
      bool saturated = false;
      for (int64_t n = 0; n < N; ++n) {
        for (int64_t k = 0; k < G; ++k) {
          const int64_t base = (n * C + k * (C / G)) * HW, cnt = (C / G) * HW;
          double s = 0, sq = 0;
          for (int64_t i = 0; i < cnt; ++i) s += x.get(base + i);
          const double m = s / cnt;
          for (int64_t i = 0; i < cnt; ++i) sq += (x.get(base + i) - m) * (x.get(base + i) - m);
          const double r = 1 / std::sqrt(sq / cnt + 1e-5);
          expectNear(mean.get(n * G + k), mean.stored(m), dt, what);
          EXPECT_NEAR(rstd.get(n * G + k), rstd.stored(r), 2 * tol(dt) * r) << what;
          for (int64_t i = 0; i < cnt; ++i) {
            const int64_t c = k * (C / G) + i / HW;
            const double y = (x.get(base + i) - m) * r * gamma.get(c) + beta.get(c);
            const double q = y / (1 + std::exp(-y)) / qs.get(nScale == 1 ? 0 : c);
            const double want = std::nearbyint(std::fmin(127, std::fmax(-128, q)));
            saturated = saturated || want == 127 || want == -128;
            // fp16 rounding before the int8 cast can move a value across a half: one step.
            EXPECT_NEAR(out.get(base + i), want, 1.0 + 2e-3 * std::fabs(want)) << what << " at " << base + i;
          }
        }
      }
      EXPECT_TRUE(saturated) << what;
    }
  }
  // Without gamma and beta: 1 and 0.
  HostTensorBuf x(ACL_FLOAT16, {1, 2, 4}), qs(ACL_FLOAT, {1}), out(ACL_INT8, {1, 2, 4}),
      mean(ACL_FLOAT16, {1, 1}), rstd(ACL_FLOAT16, {1, 1});
  for (int i = 0; i < 8; ++i) x.set(i, i + 1);
  qs.set(0, 0.1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormSiluQuantGetWorkspaceSize(x.get(), nullptr, nullptr, qs.get(), 1, 1e-5,
                                                             true, out.get(), mean.get(), rstd.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(mean.get(0), 4.5);
  // x = 8: (8 - 4.5) / sqrt(5.25) = 1.5275, silu 1.2551, / 0.1 = 12.55 -> 13.
  EXPECT_EQ(out.get(7), 13);
}

TEST(GroupNormSiluQuant, Errors) {
  HostTensorBuf x(ACL_FLOAT16, {1, 4, 2}), qs(ACL_FLOAT, {1}), qs3(ACL_FLOAT, {3}), out(ACL_INT8, {1, 4, 2}),
      mean(ACL_FLOAT16, {1, 2}), rstd(ACL_FLOAT16, {1, 2}), xf(ACL_FLOAT, {1, 4, 2}), g3(ACL_FLOAT16, {3});
  auto call = [&](const aclTensor* self, const aclTensor* gamma, const aclTensor* scale, int64_t group,
                  double eps, bool silu) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnGroupNormSiluQuantGetWorkspaceSize(self, gamma, nullptr, scale, group, eps, silu, out.get(),
                                                     mean.get(), rstd.get(), ws, ex);
    });
  };
  EXPECT_EQ(call(x.get(), nullptr, qs.get(), 2, 1e-5, true), 0);
  EXPECT_EQ(call(nullptr, nullptr, qs.get(), 2, 1e-5, true), kParamNull);
  EXPECT_EQ(call(x.get(), nullptr, nullptr, 2, 1e-5, true), kParamNull);
  EXPECT_EQ(call(xf.get(), nullptr, qs.get(), 2, 1e-5, true), kParamInvalid);  // fp32 self
  EXPECT_EQ(call(x.get(), nullptr, qs3.get(), 2, 1e-5, true), kParamInvalid);  // 3 scales for C = 4
  EXPECT_EQ(call(x.get(), g3.get(), qs.get(), 2, 1e-5, true), kParamInvalid);  // gamma of 3
  EXPECT_EQ(call(x.get(), nullptr, qs.get(), 3, 1e-5, true), kParamInvalid);   // 3 does not divide 4
  EXPECT_EQ(call(x.get(), nullptr, qs.get(), 2, 0.0, true), kParamInvalid);    // eps <= 0
  EXPECT_EQ(call(x.get(), nullptr, qs.get(), 2, 1e-5, false), kParamInvalid);  // silu off
}
