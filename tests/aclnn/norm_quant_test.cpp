// RMS norm fused with quantisation on host memory against a reference written here: the norm
// in double, then rint(q / scale + offset) or q * scale, per-tensor and per-channel, one or two
// outputs, beta, rstd and the RMS-norm output, and the dynamic per-row forms with smooth scales
// and an output mask; argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_ada_layer_norm_quant.h"
#include "aclnnop/aclnn_add_layer_norm_quant_v2.h"
#include "aclnnop/aclnn_add_rms_norm_dynamic_quant_v2.h"
#include "aclnnop/aclnn_add_rms_norm_quant_v2.h"
#include "aclnnop/aclnn_layer_norm_quant.h"
#include "aclnnop/aclnn_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_rms_norm_quant.h"
#include "aclnnop/aclnn_rms_norm_quant_v3.h"

using namespace aclnn_test;

namespace {

// q[r][i] = x[r][i] / rms(x[r]) * gamma[i] (+ beta[i]) with x = x1 (+ x2), in double.
std::vector<double> normRef(HostTensorBuf& x1, HostTensorBuf* x2, HostTensorBuf& gamma, HostTensorBuf* beta,
                            int64_t rows, int64_t n, double eps, std::vector<double>* rstd = nullptr) {
  std::vector<double> q(static_cast<size_t>(rows * n));
  for (int64_t r = 0; r < rows; ++r) {
    double ss = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double x = x1.get(r * n + i) + (x2 != nullptr ? x2->get(r * n + i) : 0.0);
      ss += x * x;
    }
    const double rs = 1 / std::sqrt(ss / n + eps);
    if (rstd != nullptr) rstd->push_back(rs);
    for (int64_t i = 0; i < n; ++i) {
      const double x = x1.get(r * n + i) + (x2 != nullptr ? x2->get(r * n + i) : 0.0);
      q[r * n + i] = x * rs * gamma.get(i) + (beta != nullptr ? beta->get(i) : 0.0);
    }
  }
  return q;
}

// The layer norm: (x - mean) / sqrt(var + eps) * gamma + beta, x = x1 (+ x2) (+ bias), in double.
std::vector<double> layerRef(HostTensorBuf& x1, HostTensorBuf* x2, HostTensorBuf* bias, HostTensorBuf& gamma,
                             HostTensorBuf& beta, int64_t rows, int64_t n, double eps) {
  std::vector<double> y(static_cast<size_t>(rows * n));
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> x(static_cast<size_t>(n));
    double mean = 0, var = 0;
    for (int64_t i = 0; i < n; ++i) {
      x[i] = x1.get(r * n + i) + (x2 != nullptr ? x2->get(r * n + i) : 0.0) +
             (bias != nullptr ? bias->get(i) : 0.0);
      mean += x[i] / n;
    }
    for (int64_t i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean) / n;
    for (int64_t i = 0; i < n; ++i)
      y[r * n + i] = (x[i] - mean) / std::sqrt(var + eps) * gamma.get(i) + beta.get(i);
  }
  return y;
}

double sat8(double v) { return std::min(127.0, std::max(-128.0, v)); }

}  // namespace

TEST(NormQuant, RmsNormQuantPerTensorAndV3PerChannelWithRstd) {
  std::mt19937 g(41);
  const int64_t R = 3, N = 16;
  const double eps = 1e-6;
  HostTensorBuf x(ACL_FLOAT16, {R, N}), gamma(ACL_FLOAT16, {N}), beta(ACL_FLOAT16, {N}),
      scale(ACL_FLOAT16, {1});
  HostTensorBuf offset(ACL_INT8, {1}), y(ACL_INT8, {R, N});
  x.fillRandom(g, -2, 2);
  gamma.fillRandom(g, 0.5, 1.5);
  beta.fillRandom(g, -0.1, 0.1);
  scale.set(0, 0.015625);  // exact in fp16
  offset.set(0, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRmsNormQuantGetWorkspaceSize(x.get(), gamma.get(), beta.get(), scale.get(),
                                                       offset.get(), eps, y.get(), ws, ex);
            }),
            0);
  const std::vector<double> q = normRef(x, nullptr, gamma, &beta, R, N, eps);
  for (int64_t i = 0; i < R * N; ++i)
    EXPECT_NEAR(y.get(i), sat8(std::nearbyint(q[i] / 0.015625 + 3)), 1.0) << i;
  // V3: per-channel scale, multiply mode, rstd written.
  HostTensorBuf scaleC(ACL_FLOAT, {N}), y3(ACL_INT8, {R, N}), rstd(ACL_FLOAT, {R, 1});
  scaleC.fillRandom(g, 10, 40);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRmsNormQuantV3GetWorkspaceSize(x.get(), gamma.get(), scaleC.get(), nullptr, nullptr,
                                                         eps, false, true, y3.get(), rstd.get(), ws, ex);
            }),
            0);
  std::vector<double> rs;
  const std::vector<double> q3 = normRef(x, nullptr, gamma, nullptr, R, N, eps, &rs);
  for (int64_t r = 0; r < R; ++r) {
    EXPECT_NEAR(rstd.get(r), rs[r], 1e-5 * rs[r]);
    for (int64_t i = 0; i < N; ++i) {
      EXPECT_NEAR(y3.get(r * N + i), sat8(std::nearbyint(q3[r * N + i] * scaleC.get(i))), 1.0);
    }
  }
}

TEST(NormQuant, AddRmsNormQuantV2TwoOutputsBetaAndRmsNormOut) {
  std::mt19937 g(42);
  const int64_t R = 4, N = 8;
  const double eps = 1e-5;
  HostTensorBuf x1(ACL_BF16, {R, N}), x2(ACL_BF16, {R, N}), gamma(ACL_BF16, {N}), beta(ACL_BF16, {N});
  HostTensorBuf s1(ACL_FLOAT, {N}), s2(ACL_FLOAT, {N}), z1(ACL_INT32, {N}), y1(ACL_INT8, {R, N}),
      y2(ACL_INT8, {R, N});
  HostTensorBuf xOut(ACL_BF16, {R, N}), rmsOut(ACL_BF16, {R, N});
  for (HostTensorBuf* t : {&x1, &x2}) t->fillRandom(g, -1, 1);
  gamma.fillRandom(g, 0.5, 1.5);
  beta.fillRandom(g, -0.2, 0.2);
  s1.fillRandom(g, 0.01, 0.03);
  s2.fillRandom(g, 0.02, 0.05);
  z1.fillRandom(g, -5, 5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormQuantV2GetWorkspaceSize(
                  x1.get(), x2.get(), gamma.get(), s1.get(), s2.get(), z1.get(), nullptr, beta.get(), -1, eps,
                  true, y1.get(), y2.get(), xOut.get(), rmsOut.get(), ws, ex);
            }),
            0);
  const std::vector<double> q = normRef(x1, &x2, gamma, &beta, R, N, eps);
  const std::vector<double> n = normRef(x1, &x2, gamma, nullptr, R, N, eps);
  for (int64_t i = 0; i < R * N; ++i) {
    const int64_t c = i % N;
    EXPECT_NEAR(y1.get(i), sat8(std::nearbyint(q[i] / s1.get(c) + z1.get(c))), 1.0) << i;
    EXPECT_NEAR(y2.get(i), sat8(std::nearbyint(q[i] / s2.get(c))), 1.0) << i;
    expectNear(xOut.get(i), x1.get(i) + x2.get(i), ACL_BF16, "xOut");
    expectNear(rmsOut.get(i), n[i], ACL_BF16, "rmsNormOut");
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAddRmsNormQuantV2GetWorkspaceSize(x1.get(), x2.get(), gamma.get(), s1.get(), nullptr,
                                                   nullptr, nullptr, nullptr, 0, eps, true, y1.get(), nullptr,
                                                   xOut.get(), nullptr, &ws, &ex),
            161002);  // axis other than -1
  EXPECT_EQ(aclnnAddRmsNormQuantV2GetWorkspaceSize(x1.get(), x2.get(), gamma.get(), nullptr, nullptr, nullptr,
                                                   nullptr, nullptr, -1, eps, true, y1.get(), nullptr,
                                                   xOut.get(), nullptr, &ws, &ex),
            161001);  // scales1 required
}

TEST(NormQuant, DynamicFormsQuantisePerRowWithSmoothScales) {
  std::mt19937 g(43);
  const int64_t R = 3, N = 32;
  const double eps = 1e-6;
  HostTensorBuf x(ACL_FLOAT16, {R, N}), gamma(ACL_FLOAT16, {N}), smooth(ACL_FLOAT16, {N}),
      y(ACL_INT8, {R, N});
  HostTensorBuf scale(ACL_FLOAT, {R});
  x.fillRandom(g, -3, 3);
  gamma.fillRandom(g, 0.5, 1.5);
  smooth.fillRandom(g, 0.5, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRmsNormDynamicQuantGetWorkspaceSize(x.get(), gamma.get(), smooth.get(), nullptr,
                                                              eps, ACL_INT8, y.get(), scale.get(), ws, ex);
            }),
            0);
  const std::vector<double> q = normRef(x, nullptr, gamma, nullptr, R, N, eps);
  for (int64_t r = 0; r < R; ++r) {
    double m = 0;
    for (int64_t i = 0; i < N; ++i) m = std::max(m, std::fabs(q[r * N + i] * smooth.get(i)));
    EXPECT_NEAR(scale.get(r), m / 127, 1e-5 * m);
    for (int64_t i = 0; i < N; ++i) {
      EXPECT_NEAR(y.get(r * N + i), std::nearbyint(q[r * N + i] * smooth.get(i) / (m / 127)), 1.0);
    }
  }
  // AddRmsNormDynamicQuantV2 with the mask asking for the second output only.
  HostTensorBuf x2(ACL_FLOAT16, {R, N}), y1(ACL_INT8, {R, N}), y2(ACL_INT8, {R, N}),
      xOut(ACL_FLOAT16, {R, N});
  HostTensorBuf sc1(ACL_FLOAT, {R}), sc2(ACL_FLOAT, {R});
  x2.fillRandom(g, -1, 1);
  for (int64_t i = 0; i < R * N; ++i) y1.set(i, 99);
  const bool mask[2] = {false, true};
  aclBoolArray* m = aclCreateBoolArray(mask, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(
                  x.get(), x2.get(), gamma.get(), nullptr, smooth.get(), nullptr, eps, m, y1.get(), y2.get(),
                  xOut.get(), sc1.get(), sc2.get(), ws, ex);
            }),
            0);
  aclDestroyBoolArray(m);
  const std::vector<double> q2 = normRef(x, &x2, gamma, nullptr, R, N, eps);
  for (int64_t r = 0; r < R; ++r) {
    double mx = 0;
    for (int64_t i = 0; i < N; ++i) mx = std::max(mx, std::fabs(q2[r * N + i] * smooth.get(i)));
    EXPECT_NEAR(sc2.get(r), mx / 127, 1e-5 * mx);
    for (int64_t i = 0; i < N; ++i) {
      EXPECT_EQ(y1.get(r * N + i), 99);  // masked out: untouched
      EXPECT_NEAR(y2.get(r * N + i), std::nearbyint(q2[r * N + i] * smooth.get(i) / (mx / 127)), 1.0);
    }
  }
  HostTensorBuf yBad(ACL_FLOAT8_E4M3FN, {R, N}), gammaBad(ACL_FLOAT16, {N + 1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnRmsNormDynamicQuantGetWorkspaceSize(x.get(), gamma.get(), nullptr, nullptr, eps,
                                                     ACL_FLOAT8_E4M3FN, yBad.get(), scale.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnRmsNormDynamicQuantGetWorkspaceSize(x.get(), gammaBad.get(), nullptr, nullptr, eps, ACL_INT8,
                                                     y.get(), scale.get(), &ws, &ex),
            161002);
}

TEST(NormQuant, LayerNormQuantStaticDynamicAndTheAddFormWithBias) {
  std::mt19937 g(44);
  const int64_t R = 3, N = 16;
  const double eps = 1e-5;
  HostTensorBuf x(ACL_FLOAT16, {R, N}), gamma(ACL_FLOAT16, {N}), beta(ACL_FLOAT16, {N}), sc(ACL_FLOAT16, {1});
  HostTensorBuf zp(ACL_INT8, {1}), res(ACL_INT8, {R, N}), scaleOut(ACL_FLOAT, {R, 1});
  x.fillRandom(g, -3, 5);
  gamma.fillRandom(g, 0.5, 1.5);
  beta.fillRandom(g, -0.2, 0.2);
  sc.set(0, 0.03125);
  zp.set(0, -4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormQuantGetWorkspaceSize(x.get(), gamma.get(), beta.get(), sc.get(), zp.get(),
                                                         0, eps, res.get(), scaleOut.get(), ws, ex);
            }),
            0);
  const std::vector<double> y = layerRef(x, nullptr, nullptr, gamma, beta, R, N, eps);
  for (int64_t i = 0; i < R * N; ++i)
    EXPECT_NEAR(res.get(i), sat8(std::nearbyint(y[i] / 0.03125 - 4)), 1.0) << i;
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormQuantGetWorkspaceSize(x.get(), gamma.get(), beta.get(), nullptr, nullptr,
                                                         1, eps, res.get(), scaleOut.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < R; ++r) {
    double m = 0;
    for (int64_t i = 0; i < N; ++i) m = std::max(m, std::fabs(y[r * N + i]));
    EXPECT_NEAR(scaleOut.get(r), m / 127, 1e-5 * m);
    for (int64_t i = 0; i < N; ++i)
      EXPECT_NEAR(res.get(r * N + i), std::nearbyint(y[r * N + i] / (m / 127)), 1.0);
  }
  // AddLayerNormQuantV2: x1 + x2 + bias, static per channel, multiply mode, xOut and layernormRes.
  HostTensorBuf x2(ACL_FLOAT16, {R, N}), bias(ACL_FLOAT16, {N}), s1(ACL_FLOAT16, {N}), y1(ACL_INT8, {R, N});
  HostTensorBuf y2(ACL_INT8, {R, N}), xOut(ACL_FLOAT16, {R, N}), lnRes(ACL_FLOAT16, {R, N}),
      o1(ACL_FLOAT, {R}), o2(ACL_FLOAT, {R});
  x2.fillRandom(g, -1, 1);
  bias.fillRandom(g, -0.5, 0.5);
  s1.fillRandom(g, 10, 30);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddLayerNormQuantV2GetWorkspaceSize(
                  x.get(), x2.get(), gamma.get(), beta.get(), bias.get(), s1.get(), nullptr, nullptr, nullptr,
                  "static", eps, true, false, y1.get(), y2.get(), xOut.get(), lnRes.get(), o1.get(), o2.get(),
                  ws, ex);
            }),
            0);
  const std::vector<double> ya = layerRef(x, &x2, &bias, gamma, beta, R, N, eps);
  for (int64_t i = 0; i < R * N; ++i) {
    EXPECT_NEAR(y1.get(i), sat8(std::nearbyint(ya[i] * s1.get(i % N))), 1.0) << i;
    expectNear(lnRes.get(i), ya[i], ACL_FLOAT16, "layernormRes");
    expectNear(xOut.get(i), x.get(i) + x2.get(i) + bias.get(i % N), ACL_FLOAT16, "xOut");
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnLayerNormQuantGetWorkspaceSize(x.get(), gamma.get(), beta.get(), sc.get(), nullptr, 2, eps,
                                                res.get(), scaleOut.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnAddLayerNormQuantV2GetWorkspaceSize(
                x.get(), x2.get(), gamma.get(), beta.get(), nullptr, nullptr, nullptr, nullptr, nullptr,
                "static", eps, false, true, y1.get(), nullptr, nullptr, nullptr, nullptr, nullptr, &ws, &ex),
            161001);  // static without scales1
}

TEST(NormQuant, AdaLayerNormQuantScalesAndShiftsEachBatch) {
  std::mt19937 g(45);
  const int64_t B = 2, S = 3, H = 8;
  const double eps = 1e-5;
  HostTensorBuf x(ACL_FLOAT16, {B, S, H}), sc(ACL_FLOAT16, {B, H}), sh(ACL_FLOAT16, {B, H}),
      w(ACL_FLOAT16, {H});
  HostTensorBuf bias(ACL_FLOAT16, {H}), smooth(ACL_FLOAT16, {H}), out(ACL_INT8, {B, S, H}),
      qs(ACL_FLOAT, {B, S});
  x.fillRandom(g, -2, 2);
  for (HostTensorBuf* t : {&sc, &sh, &bias}) t->fillRandom(g, -0.5, 0.5);
  w.fillRandom(g, 0.5, 1.5);
  smooth.fillRandom(g, 0.5, 1.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdaLayerNormQuantGetWorkspaceSize(x.get(), sc.get(), sh.get(), w.get(), bias.get(),
                                                            smooth.get(), eps, "dynamic", out.get(), qs.get(),
                                                            nullptr, ws, ex);
            }),
            0);
  for (int64_t row = 0; row < B * S; ++row) {
    const int64_t b = row / S;
    double mean = 0, var = 0;
    for (int64_t h = 0; h < H; ++h) mean += x.get(row * H + h) / H;
    for (int64_t h = 0; h < H; ++h) var += (x.get(row * H + h) - mean) * (x.get(row * H + h) - mean) / H;
    std::vector<double> y(H);
    double m = 0;
    for (int64_t h = 0; h < H; ++h) {
      const double n = (x.get(row * H + h) - mean) / std::sqrt(var + eps) * w.get(h) + bias.get(h);
      y[h] = (n * (1 + sc.get(b * H + h)) + sh.get(b * H + h)) * smooth.get(h);
      m = std::max(m, std::fabs(y[h]));
    }
    EXPECT_NEAR(qs.get(row), m / 127, 1e-5 * m);
    for (int64_t h = 0; h < H; ++h) EXPECT_NEAR(out.get(row * H + h), std::nearbyint(y[h] / (m / 127)), 1.0);
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAdaLayerNormQuantGetWorkspaceSize(x.get(), sc.get(), sh.get(), nullptr, nullptr, nullptr,
                                                   eps, "static", out.get(), qs.get(), nullptr, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnAdaLayerNormQuantGetWorkspaceSize(x.get(), nullptr, sh.get(), nullptr, nullptr, nullptr, eps,
                                                   "dynamic", out.get(), qs.get(), nullptr, &ws, &ex),
            161001);
}
