// ApplyAdamWV2 and ApplyFusedEmaAdam (runtime/aclnn/ops/optim_adam.cpp) against their docs'
// formulas evaluated here: bias corrections from the step tensor (int64 or fp32), amsgrad's
// running maximum stored in maxGradNormOptionalRef, maximize, EMA of the weights in both decay
// modes; the step's own type and the mode's range are checked.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "aclnnop/aclnn_apply_fused_ema_adam.h"
#include "host_values.h"

using namespace aclnn_test;

TEST(OptimAdam, AdamWV2) {
  std::mt19937 g(3);
  for (aclDataType stepType : {ACL_INT64, ACL_FLOAT}) {
    for (bool amsgrad : {false, true}) {
      HostTensorBuf var(ACL_FLOAT, {3, 2}), m(ACL_FLOAT, {3, 2}), v(ACL_FLOAT, {3, 2}), mx(ACL_FLOAT, {3, 2}),
          grad(ACL_FLOAT, {3, 2}), step(stepType, {1});
      var.fillRandom(g, -1, 1);
      m.fillRandom(g, -0.1, 0.1);
      v.fillRandom(g, 0, 0.01);
      mx.fillRandom(g, 0, 0.02);
      grad.fillRandom(g, -1, 1);
      step.set(0, 4);
      const std::vector<double> p0 = values(var), m0 = values(m), v0 = values(v), x0 = values(mx);
      const float lr = 0.01f, b1 = 0.9f, b2 = 0.99f, wd = 0.05f, eps = 1e-6f;
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnApplyAdamWV2GetWorkspaceSize(var.get(), m.get(), v.get(), mx.get(), grad.get(),
                                                           step.get(), lr, b1, b2, wd, eps, amsgrad, true, ws,
                                                           ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 6; ++i) {
        const size_t k = static_cast<size_t>(i);
        const double gr = -grad.get(i);  // maximize
        const double mt = b1 * m0[k] + (1 - b1) * gr, vt = b2 * v0[k] + (1 - b2) * gr * gr;
        const double second = amsgrad ? std::max(x0[k], vt) : vt;
        const double mHat = mt / (1 - std::pow(b1, 4)), vHat = second / (1 - std::pow(b2, 4));
        EXPECT_NEAR(var.get(i), p0[k] - lr * wd * p0[k] - lr * mHat / (std::sqrt(vHat) + eps), 2e-6);
        EXPECT_NEAR(m.get(i), mt, 1e-6);
        EXPECT_NEAR(v.get(i), vt, 1e-7);
        EXPECT_NEAR(mx.get(i), amsgrad ? second : x0[k], 1e-7);  // untouched without amsgrad
      }
    }
  }
  HostTensorBuf var(ACL_FLOAT, {2}), step16(ACL_FLOAT16, {1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnApplyAdamWV2GetWorkspaceSize(var.get(), var.get(), var.get(), nullptr, var.get(), step16.get(),
                                        0.1f, 0.9f, 0.99f, 0, 1e-8f, false, false, &ws, &ex),
      161002);
  EXPECT_EQ(
      aclnnApplyAdamWV2GetWorkspaceSize(var.get(), var.get(), var.get(), nullptr, var.get(), step16.get(),
                                        0.1f, 0.9f, 0.99f, 0, 1e-8f, true, false, &ws, &ex),
      161001);
}

TEST(OptimAdam, FusedEmaAdamBothModes) {
  std::mt19937 g(5);
  for (int64_t mode : {0, 1}) {
    for (bool bias : {true, false}) {
      HostTensorBuf gr(ACL_BF16, {5}), var(ACL_BF16, {5}), m(ACL_BF16, {5}), v(ACL_BF16, {5}),
          s(ACL_BF16, {5}), step(ACL_INT64, {1});
      gr.fillRandom(g, -1, 1);
      var.fillRandom(g, -1, 1);
      m.fillRandom(g, -0.1, 0.1);
      v.fillRandom(g, 0, 0.01);
      s.fillRandom(g, -1, 1);
      step.set(0, 2);
      const std::vector<double> p0 = values(var), m0 = values(m), v0 = values(v), s0 = values(s);
      const double lr = 0.01, ema = 0.9, b1 = 0.9, b2 = 0.999, eps = 1e-8, wd = 0.1;
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnApplyFusedEmaAdamGetWorkspaceSize(gr.get(), var.get(), m.get(), v.get(),
                                                                s.get(), step.get(), lr, ema, b1, b2, eps,
                                                                mode, bias, wd, ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 5; ++i) {
        const size_t k = static_cast<size_t>(i);
        const double grad = gr.get(i) + (mode == 0 ? wd * p0[k] : 0);
        const double mt = b1 * m0[k] + (1 - b1) * grad, vt = b2 * v0[k] + (1 - b2) * grad * grad;
        const double c1 = bias ? 1 - b1 * b1 : 1, c2 = bias ? 1 - b2 * b2 : 1;
        double upd = (mt / c1) / (std::sqrt(vt / c2) + eps);
        if (mode == 1) upd += wd * p0[k];
        const double pt = p0[k] - lr * upd;
        expectNear(var.get(i), var.stored(pt), ACL_BF16, "var");
        expectNear(m.get(i), m.stored(mt), ACL_BF16, "m");
        expectNear(s.get(i), s.stored(ema * s0[k] + (1 - ema) * pt), ACL_BF16, "s");
      }
    }
  }
  HostTensorBuf x(ACL_FLOAT, {2}), step(ACL_INT64, {1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnApplyFusedEmaAdamGetWorkspaceSize(x.get(), x.get(), x.get(), x.get(), x.get(), step.get(),
                                                   0.1, 0.9, 0.9, 0.99, 1e-8, 2, true, 0, &ws, &ex),
            161002);
}
