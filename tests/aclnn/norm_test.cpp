// The norm engine's operators (runtime/aclnn/ops/norm_*.cpp) run on host memory against
// references written here in double precision: forwards from their public definitions, and
// every gradient against central finite differences of the forward it differentiates (so a
// gradient formula is checked by a computation that does not share it). Also the documented
// error codes, empty tensors, a strided view, in-place variants and the cost model's bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_ada_layer_norm.h"
#include "aclnnop/aclnn_ada_layer_norm_backward.h"
#include "aclnnop/aclnn_ada_layer_norm_v2.h"
#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_add_layer_norm_grad.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_add_rms_norm_cast.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "aclnnop/aclnn_batch_norm_backward_reduce.h"
#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_elemt_backward.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_bn_infer_grad.h"
#include "aclnnop/aclnn_deep_norm.h"
#include "aclnnop/aclnn_deep_norm_grad.h"
#include "aclnnop/aclnn_embedding_renorm.h"
#include "aclnnop/aclnn_fused_add_rms_norm.h"
#include "aclnnop/aclnn_gemma_rms_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_group_norm_silu.h"
#include "aclnnop/aclnn_group_norm_swish.h"
#include "aclnnop/aclnn_group_norm_swish_grad.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_lp_norm_v3.h"
#include "aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_renorm.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "aclnnop/aclnn_scaled_masked_softmax.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;
using Vec = std::vector<double>;

Vec values(HostTensorBuf& t) {
  Vec v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<size_t>(i)] = t.get(i);
  return v;
}

void expectAll(HostTensorBuf& got, const Vec& want, const std::string& what, double relTol = 0) {
  ASSERT_EQ(static_cast<size_t>(got.numel()), want.size()) << what;
  for (int64_t i = 0; i < got.numel(); ++i) {
    const double w = want[static_cast<size_t>(i)];
    if (relTol > 0) {
      EXPECT_NEAR(got.get(i), w, relTol * std::max(1.0, std::fabs(w))) << what << " [" << i << "]";
    } else {
      expectNear(got.get(i), got.stored(w), got.dtype(), what + " [" + std::to_string(i) + "]");
    }
  }
}

// d(loss)/d(x_i) by central differences.
Vec numericGrad(const std::function<double(const Vec&)>& loss, Vec x, double h = 1e-5) {
  Vec g(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double keep = x[i];
    x[i] = keep + h;
    const double up = loss(x);
    x[i] = keep - h;
    g[i] = (up - loss(x)) / (2 * h);
    x[i] = keep;
  }
  return g;
}

double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Layer norm of rows of n: (x - mean) / sqrt(var + eps) * g + b.
Vec layerNorm(const Vec& x, const Vec& g, const Vec& b, size_t n, double eps, Vec* mean = nullptr,
              Vec* rstd = nullptr) {
  Vec y(x.size());
  for (size_t r = 0; r < x.size() / n; ++r) {
    double m = 0, v = 0;
    for (size_t i = 0; i < n; ++i) m += x[r * n + i] / static_cast<double>(n);
    for (size_t i = 0; i < n; ++i) v += (x[r * n + i] - m) * (x[r * n + i] - m) / static_cast<double>(n);
    const double rs = 1 / std::sqrt(v + eps);
    if (mean) mean->push_back(m);
    if (rstd) rstd->push_back(rs);
    for (size_t i = 0; i < n; ++i) y[r * n + i] = (x[r * n + i] - m) * rs * g[i] + b[i];
  }
  return y;
}

// RMS norm of rows of n: x / sqrt(mean(x^2) + eps) * g.
Vec rmsNorm(const Vec& x, const Vec& g, size_t n, double eps, Vec* rstd = nullptr) {
  Vec y(x.size());
  for (size_t r = 0; r < x.size() / n; ++r) {
    double ss = 0;
    for (size_t i = 0; i < n; ++i) ss += x[r * n + i] * x[r * n + i] / static_cast<double>(n);
    const double rs = 1 / std::sqrt(ss + eps);
    if (rstd) rstd->push_back(rs);
    for (size_t i = 0; i < n; ++i) y[r * n + i] = x[r * n + i] * rs * g[i];
  }
  return y;
}

// Group norm of x [N, C, HW] in G groups, per-channel affine.
Vec groupNorm(const Vec& x, const Vec& g, const Vec& b, size_t n, size_t c, size_t hw, size_t groups,
              double eps, Vec* mean = nullptr, Vec* rstd = nullptr) {
  Vec y(x.size());
  const size_t m = c / groups * hw;
  for (size_t k = 0; k < n * groups; ++k) {
    double mu = 0, v = 0;
    for (size_t i = 0; i < m; ++i) mu += x[k * m + i] / static_cast<double>(m);
    for (size_t i = 0; i < m; ++i) v += (x[k * m + i] - mu) * (x[k * m + i] - mu) / static_cast<double>(m);
    const double rs = 1 / std::sqrt(v + eps);
    if (mean) mean->push_back(mu);
    if (rstd) rstd->push_back(rs);
    for (size_t i = 0; i < m; ++i) {
      const size_t ch = (k % groups) * (c / groups) + i / hw;
      y[k * m + i] = (x[k * m + i] - mu) * rs * g[ch] + b[ch];
    }
  }
  return y;
}

void fill(HostTensorBuf& t, const Vec& v) {
  for (size_t i = 0; i < v.size(); ++i) t.set(static_cast<int64_t>(i), v[i]);
}

Vec randomVec(std::mt19937& g, size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  Vec v(n);
  for (double& x : v) x = static_cast<float>(u(g));
  return v;
}

using IntArrayPtr = std::unique_ptr<aclIntArray, decltype(&aclDestroyIntArray)>;
IntArrayPtr ints(std::vector<int64_t> v) {
  return IntArrayPtr(aclCreateIntArray(v.data(), v.size()), aclDestroyIntArray);
}
using BoolArrayPtr = std::unique_ptr<aclBoolArray, decltype(&aclDestroyBoolArray)>;
BoolArrayPtr bools(std::vector<bool> v) {
  bool b[8] = {};
  for (size_t i = 0; i < v.size(); ++i) b[i] = v[i];
  return BoolArrayPtr(aclCreateBoolArray(b, v.size()), aclDestroyBoolArray);
}
using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;
ScalarPtr scalar(double v) { return ScalarPtr(makeScalar(ACL_FLOAT, v), aclDestroyScalar); }

}  // namespace

TEST(Norms, AddRmsNormFamilyMatchesTheDefinitionInEachFloatType) {
  std::mt19937 g(1);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x1(dt, {3, 2, 16}), x2(dt, {3, 2, 16}), gamma(dt, {16}), y(dt, {3, 2, 16}),
        xo(dt, {3, 2, 16}), rstd(ACL_FLOAT, {3, 2, 1}), yg(dt, {3, 2, 16}), yf(dt, {3, 2, 16}),
        xf(dt, {3, 2, 16});
    x1.fillRandom(g, -2, 2);
    x2.fillRandom(g, -2, 2);
    gamma.fillRandom(g, 0.5, 1.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAddRmsNormGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), 1e-6, y.get(),
                                                       rstd.get(), xo.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    // The sum is written in x's type and normalised as written.
    Vec sum(96), scaled(96);
    for (int64_t i = 0; i < 96; ++i) sum[static_cast<size_t>(i)] = xo.stored(x1.get(i) + x2.get(i));
    for (int64_t i = 0; i < 96; ++i) scaled[static_cast<size_t>(i)] = xf.stored(x1.get(i) * 0.5 + x2.get(i));
    Vec rs, rsScaled;
    expectAll(xo, sum, "AddRmsNorm xOut");
    expectAll(y, rmsNorm(sum, values(gamma), 16, 1e-6, &rs), "AddRmsNorm y");
    expectAll(rstd, rs, "AddRmsNorm rstd", 1e-5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFusedAddRmsNormGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), 1e-6, 0.5,
                                                            yf.get(), rstd.get(), xf.get(), ws, ex);
              }),
              0);
    expectAll(yf, rmsNorm(scaled, values(gamma), 16, 1e-6, &rsScaled), "FusedAddRmsNorm y");
    expectAll(rstd, rsScaled, "FusedAddRmsNorm rstd", 1e-5);
    // Gemma: y = x * rstd * (1 + gamma).
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnGemmaRmsNormGetWorkspaceSize(x1.get(), gamma.get(), 1e-6, yg.get(), rstd.get(),
                                                         ws, ex);
              }),
              0);
    Vec onePlus = values(gamma);
    for (double& v : onePlus) v += 1;
    expectAll(yg, rmsNorm(values(x1), onePlus, 16, 1e-6), "GemmaRmsNorm y");
    // In place: x1Ref gets y, x2Ref gets the sum.
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceAddRmsNormGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), 1e-6,
                                                              rstd.get(), ws, ex);
              }),
              0);
    expectAll(x2, sum, "InplaceAddRmsNorm x2Ref");
    expectAll(x1, values(y), "InplaceAddRmsNorm x1Ref", 1e-12);
  }
}

TEST(Norms, AddRmsNormCastWritesFp32AndTheInputType) {
  std::mt19937 g(2);
  HostTensorBuf x1(ACL_FLOAT16, {2, 32}), x2(ACL_FLOAT16, {2, 32}), gamma(ACL_FLOAT16, {32}),
      y1(ACL_FLOAT, {2, 32}), y2(ACL_FLOAT16, {2, 32}), rstd(ACL_FLOAT, {2, 1}), xo(ACL_FLOAT16, {2, 32});
  x1.fillRandom(g, -3, 3);
  x2.fillRandom(g, -3, 3);
  gamma.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormCastGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), 1e-6, y1.get(),
                                                         y2.get(), rstd.get(), xo.get(), ws, ex);
            }),
            0);
  Vec sum(64);
  for (int64_t i = 0; i < 64; ++i) sum[static_cast<size_t>(i)] = xo.stored(x1.get(i) + x2.get(i));
  const Vec want = rmsNorm(sum, values(gamma), 32, 1e-6);
  expectAll(y1, want, "y1 (fp32)");
  expectAll(y2, want, "y2 (fp16)");
  // y1 must be fp32.
  HostTensorBuf y1h(ACL_FLOAT16, {2, 32});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormCastGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), 1e-6, y1h.get(),
                                                         y2.get(), rstd.get(), xo.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(Norms, AddRmsNormReadsAStridedViewAndAcceptsEmptyRows) {
  std::mt19937 g(3);
  // x1 is the transpose of a [16, 4] buffer: a [4, 16] view with strides {1, 4}.
  HostTensorBuf x1(ACL_FLOAT, {4, 16}, {1, 4}, 0), x2(ACL_FLOAT, {4, 16}), gamma(ACL_FLOAT, {16}),
      y(ACL_FLOAT, {4, 16}), rstd(ACL_FLOAT, {4, 1}), xo(ACL_FLOAT, {4, 16});
  x1.fillRandom(g, -1, 1);
  x2.fillRandom(g, -1, 1);
  gamma.fillRandom(g, 0.5, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), 1e-6, y.get(),
                                                     rstd.get(), xo.get(), ws, ex);
            }),
            0);
  Vec sum(64);
  for (int64_t i = 0; i < 64; ++i) sum[static_cast<size_t>(i)] = static_cast<float>(x1.get(i) + x2.get(i));
  expectAll(y, rmsNorm(sum, values(gamma), 16, 1e-6), "strided x1");
  HostTensorBuf e1(ACL_FLOAT, {0, 16}), e2(ACL_FLOAT, {0, 16}), ey(ACL_FLOAT, {0, 16}), er(ACL_FLOAT, {0, 1}),
      ex0(ACL_FLOAT, {0, 16});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormGetWorkspaceSize(e1.get(), e2.get(), gamma.get(), 1e-6, ey.get(),
                                                     er.get(), ex0.get(), ws, ex);
            }),
            0);
}

TEST(Norms, RmsNormGradIsTheForwardsDerivative) {
  std::mt19937 g(4);
  const size_t rows = 3, n = 8;
  HostTensorBuf dy(ACL_FLOAT, {3, 8}), x(ACL_FLOAT, {3, 8}), rstd(ACL_FLOAT, {3}), gamma(ACL_FLOAT, {8}),
      dx(ACL_FLOAT, {3, 8}), dgamma(ACL_FLOAT, {8});
  const Vec xv = randomVec(g, rows * n, -2, 2), dyv = randomVec(g, rows * n, -1, 1),
            gv = randomVec(g, n, 0.5, 1.5);
  Vec rs;
  rmsNorm(xv, gv, n, 1e-6, &rs);
  fill(x, xv);
  fill(dy, dyv);
  fill(gamma, gv);
  fill(rstd, rs);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRmsNormGradGetWorkspaceSize(dy.get(), x.get(), rstd.get(), gamma.get(), dx.get(),
                                                      dgamma.get(), ws, ex);
            }),
            0);
  expectAll(dx, numericGrad([&](const Vec& v) { return dot(dyv, rmsNorm(v, gv, n, 1e-6)); }, xv), "dx", 2e-4);
  expectAll(dgamma, numericGrad([&](const Vec& v) { return dot(dyv, rmsNorm(xv, v, n, 1e-6)); }, gv),
            "dgamma", 2e-4);
}

TEST(Norms, AddDeepAndAdaLayerNormsMatchTheDefinitions) {
  std::mt19937 g(5);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x1(dt, {2, 3, 8}), x2(dt, {2, 3, 8}), gamma(dt, {8}), beta(dt, {8}), bias(dt, {8}),
        y(dt, {2, 3, 8}), mean(ACL_FLOAT, {2, 3, 1}), rstd(ACL_FLOAT, {2, 3, 1}), xo(dt, {2, 3, 8});
    for (HostTensorBuf* t : {&x1, &x2}) t->fillRandom(g, -2, 2);
    gamma.fillRandom(g, 0.5, 1.5);
    beta.fillRandom(g, -1, 1);
    bias.fillRandom(g, -1, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAddLayerNormGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), beta.get(),
                                                         bias.get(), 1e-5, true, y.get(), mean.get(),
                                                         rstd.get(), xo.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    Vec sum(48), m, rs;
    for (int64_t i = 0; i < 48; ++i)
      sum[static_cast<size_t>(i)] = xo.stored(x1.get(i) + x2.get(i) + bias.get(i % 8));
    expectAll(xo, sum, "AddLayerNorm xOut");
    expectAll(y, layerNorm(sum, values(gamma), values(beta), 8, 1e-5, &m, &rs), "AddLayerNorm y");
    expectAll(mean, m, "AddLayerNorm mean", 1e-5);
    expectAll(rstd, rs, "AddLayerNorm rstd", 1e-5);
    // DeepNorm: x' = alpha * x + gx.
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnDeepNormGetWorkspaceSize(x1.get(), x2.get(), beta.get(), gamma.get(), 0.7, 1e-5,
                                                     mean.get(), rstd.get(), y.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 48; ++i) sum[static_cast<size_t>(i)] = y.stored(0.7 * x1.get(i) + x2.get(i));
    expectAll(y, layerNorm(sum, values(gamma), values(beta), 8, 1e-5), "DeepNorm y");
  }
  // Ada: x [B, S, H], scale/shift [B, H]: out = LN(x) * (1 + scale[b]) + shift[b]; V2 also mean/rstd.
  HostTensorBuf x(ACL_FLOAT, {2, 3, 4}), sc(ACL_FLOAT, {2, 4}), sh(ACL_FLOAT, {2, 4}), w(ACL_FLOAT, {4}),
      b(ACL_FLOAT, {4}), out(ACL_FLOAT, {2, 3, 4}), out2(ACL_FLOAT, {2, 3, 4}), m2(ACL_FLOAT, {2, 3, 1}),
      r2(ACL_FLOAT, {2, 3, 1});
  for (HostTensorBuf* t : {&x, &sc, &sh, &w, &b}) t->fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdaLayerNormGetWorkspaceSize(x.get(), sc.get(), sh.get(), w.get(), b.get(), 1e-5,
                                                       out.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdaLayerNormV2GetWorkspaceSize(x.get(), sc.get(), sh.get(), nullptr, nullptr, 1e-5,
                                                         out2.get(), m2.get(), r2.get(), ws, ex);
            }),
            0);
  Vec m, rs;
  const Vec ln = layerNorm(values(x), values(w), values(b), 4, 1e-5, &m, &rs);
  const Vec plain = layerNorm(values(x), Vec(4, 1.0), Vec(4, 0.0), 4, 1e-5);
  Vec want(24), want2(24);
  for (size_t e = 0; e < 24; ++e) {
    const size_t k = e / 12 * 4 + e % 4;
    want[e] = ln[e] * (1 + sc.get(static_cast<int64_t>(k))) + sh.get(static_cast<int64_t>(k));
    want2[e] = plain[e] * (1 + sc.get(static_cast<int64_t>(k))) + sh.get(static_cast<int64_t>(k));
  }
  expectAll(out, want, "AdaLayerNorm");
  expectAll(out2, want2, "AdaLayerNormV2 without weight and bias");
  expectAll(m2, m, "AdaLayerNormV2 mean");
  expectAll(r2, rs, "AdaLayerNormV2 rstd", 1e-5);
  // Scale of the wrong shape; a null required tensor.
  HostTensorBuf bad(ACL_FLOAT, {2, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdaLayerNormGetWorkspaceSize(x.get(), bad.get(), bad.get(), nullptr, nullptr, 1e-5,
                                                       out.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdaLayerNormGetWorkspaceSize(x.get(), nullptr, sh.get(), nullptr, nullptr, 1e-5,
                                                       out.get(), ws, ex);
            }),
            kParamNull);
}

TEST(Norms, LayerNormGradientsAreTheForwardsDerivatives) {
  std::mt19937 g(6);
  const size_t n = 6, rows = 4;
  const Vec xv = randomVec(g, rows * n, -2, 2), x2v = randomVec(g, rows * n, -1, 1),
            dyv = randomVec(g, rows * n, -1, 1), gv = randomVec(g, n, 0.5, 1.5), bv = randomVec(g, n, -1, 1),
            dsum = randomVec(g, rows * n, -1, 1);
  auto deep = [&](const Vec& a, const Vec& b2, double alpha) {
    Vec s(a.size());
    for (size_t i = 0; i < a.size(); ++i) s[i] = alpha * a[i] + b2[i];
    return s;
  };
  HostTensorBuf dy(ACL_FLOAT, {4, 6}), x(ACL_FLOAT, {4, 6}), x2(ACL_FLOAT, {4, 6}), gamma(ACL_FLOAT, {6}),
      beta(ACL_FLOAT, {6}), mean(ACL_FLOAT, {4, 1}), rstd(ACL_FLOAT, {4, 1}), dx(ACL_FLOAT, {4, 6}),
      dx2(ACL_FLOAT, {4, 6}), dgamma(ACL_FLOAT, {6}), dbeta(ACL_FLOAT, {6}), ds(ACL_FLOAT, {4, 6});
  fill(dy, dyv);
  fill(x, xv);
  fill(x2, x2v);
  fill(gamma, gv);
  fill(beta, bv);
  fill(ds, dsum);
  auto setStats = [&](const Vec& v) {
    Vec m, rs;
    layerNorm(v, gv, bv, n, 1e-5, &m, &rs);
    fill(mean, m);
    fill(rstd, rs);
  };
  auto lossX = [&](const Vec& v) { return dot(dyv, layerNorm(v, gv, bv, n, 1e-5)); };
  // LayerNormBackward: all three outputs, then only dx (the others may be null).
  setStats(xv);
  auto ns = ints({6});
  auto all = bools({true, true, true}), onlyDx = bools({true, false, false});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormBackwardGetWorkspaceSize(dy.get(), x.get(), ns.get(), mean.get(),
                                                            rstd.get(), gamma.get(), beta.get(), all.get(),
                                                            dx.get(), dgamma.get(), dbeta.get(), ws, ex);
            }),
            0);
  expectAll(dx, numericGrad(lossX, xv), "LayerNormBackward dx", 2e-4);
  expectAll(dgamma, numericGrad([&](const Vec& v) { return dot(dyv, layerNorm(xv, v, bv, n, 1e-5)); }, gv),
            "LayerNormBackward dgamma", 2e-4);
  expectAll(dbeta, numericGrad([&](const Vec& v) { return dot(dyv, layerNorm(xv, gv, v, n, 1e-5)); }, bv),
            "LayerNormBackward dbeta", 2e-4);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormBackwardGetWorkspaceSize(dy.get(), x.get(), ns.get(), mean.get(),
                                                            rstd.get(), gamma.get(), nullptr, onlyDx.get(),
                                                            dx.get(), nullptr, nullptr, ws, ex);
            }),
            0);
  // AddLayerNormGrad: x = x1 + x2, dx gains dsum.
  const Vec sum = deep(xv, x2v, 1.0);
  setStats(sum);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddLayerNormGradGetWorkspaceSize(dy.get(), x.get(), x2.get(), rstd.get(),
                                                           mean.get(), gamma.get(), ds.get(), dx.get(),
                                                           dgamma.get(), dbeta.get(), ws, ex);
            }),
            0);
  Vec want = numericGrad([&](const Vec& v) { return lossX(deep(v, x2v, 1.0)); }, xv);
  for (size_t i = 0; i < want.size(); ++i) want[i] += dsum[i];
  expectAll(dx, want, "AddLayerNormGrad dx", 2e-4);
  // DeepNormGrad: x' = 0.6 x + gx; dgx = dL/dgx, dx = dL/dx.
  const Vec xd = deep(xv, x2v, 0.6);
  setStats(xd);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDeepNormGradGetWorkspaceSize(dy.get(), x.get(), x2.get(), gamma.get(), mean.get(),
                                                       rstd.get(), 0.6, dx.get(), dx2.get(), dbeta.get(),
                                                       dgamma.get(), ws, ex);
            }),
            0);
  expectAll(dx, numericGrad([&](const Vec& v) { return lossX(deep(v, x2v, 0.6)); }, xv), "DeepNormGrad dx",
            2e-4);
  expectAll(dx2, numericGrad([&](const Vec& v) { return lossX(deep(xv, v, 0.6)); }, x2v), "DeepNormGrad dgx",
            2e-4);
  // Every output masked off: nothing to compute, and not an error.
  auto none = bools({false, false, false});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormBackwardGetWorkspaceSize(dy.get(), x.get(), ns.get(), mean.get(),
                                                            rstd.get(), gamma.get(), nullptr, none.get(),
                                                            nullptr, nullptr, nullptr, ws, ex);
            }),
            0);
  // Mask of the wrong length.
  auto two = bools({true, true});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLayerNormBackwardGetWorkspaceSize(dy.get(), x.get(), ns.get(), mean.get(),
                                                            rstd.get(), gamma.get(), nullptr, two.get(),
                                                            dx.get(), dgamma.get(), dbeta.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(Norms, AdaLayerNormBackwardIsTheForwardsDerivative) {
  std::mt19937 g(7);
  const size_t B = 2, S = 3, H = 4;
  const Vec xv = randomVec(g, B * S * H, -2, 2), dyv = randomVec(g, B * S * H, -1, 1),
            sv = randomVec(g, B * H, -1, 1), tv = randomVec(g, B * H, -1, 1), wv = randomVec(g, H, 0.5, 1.5),
            bv = randomVec(g, H, -1, 1);
  auto fwd = [&](const Vec& x, const Vec& s, const Vec& t, const Vec& w, const Vec& b) {
    Vec y = layerNorm(x, w, b, H, 1e-5);
    for (size_t e = 0; e < y.size(); ++e) {
      const size_t k = e / (S * H) * H + e % H;
      y[e] = y[e] * (1 + s[k]) + t[k];
    }
    return dot(dyv, y);
  };
  Vec m, rs;
  layerNorm(xv, wv, bv, H, 1e-5, &m, &rs);
  HostTensorBuf dy(ACL_FLOAT, {2, 3, 4}), x(ACL_FLOAT, {2, 3, 4}), mean(ACL_FLOAT, {2, 3, 1}),
      rstd(ACL_FLOAT, {2, 3, 1}), sc(ACL_FLOAT, {2, 4}), sh(ACL_FLOAT, {2, 4}), w(ACL_FLOAT, {4}),
      b(ACL_FLOAT, {4}), dx(ACL_FLOAT, {2, 3, 4}), dsc(ACL_FLOAT, {2, 4}), dsh(ACL_FLOAT, {2, 4}),
      dw(ACL_FLOAT, {4}), db(ACL_FLOAT, {4});
  fill(dy, dyv);
  fill(x, xv);
  fill(mean, m);
  fill(rstd, rs);
  fill(sc, sv);
  fill(sh, tv);
  fill(w, wv);
  fill(b, bv);
  auto ns = ints({4});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAdaLayerNormBackwardGetWorkspaceSize(
                  dy.get(), x.get(), ns.get(), rstd.get(), mean.get(), sc.get(), sh.get(), w.get(), b.get(),
                  dx.get(), dsc.get(), dsh.get(), dw.get(), db.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  expectAll(dx, numericGrad([&](const Vec& v) { return fwd(v, sv, tv, wv, bv); }, xv), "dx", 2e-4);
  expectAll(dsc, numericGrad([&](const Vec& v) { return fwd(xv, v, tv, wv, bv); }, sv), "dscale", 2e-4);
  expectAll(dsh, numericGrad([&](const Vec& v) { return fwd(xv, sv, v, wv, bv); }, tv), "dshift", 2e-4);
  expectAll(dw, numericGrad([&](const Vec& v) { return fwd(xv, sv, tv, v, bv); }, wv), "dweight", 2e-4);
  expectAll(db, numericGrad([&](const Vec& v) { return fwd(xv, sv, tv, wv, v); }, bv), "dbias", 2e-4);
}

TEST(Norms, GroupNormAndItsActivationsAndGradients) {
  std::mt19937 g(8);
  const size_t N = 2, C = 6, HW = 3, G = 3;
  const Vec xv = randomVec(g, N * C * HW, -2, 2), gv = randomVec(g, C, 0.5, 1.5), bv = randomVec(g, C, -1, 1),
            dyv = randomVec(g, N * C * HW, -1, 1);
  HostTensorBuf x(ACL_FLOAT, {2, 6, 3}), gamma(ACL_FLOAT, {6}), beta(ACL_FLOAT, {6}), y(ACL_FLOAT, {2, 6, 3}),
      mean(ACL_FLOAT, {2, 3}), rstd(ACL_FLOAT, {2, 3}), ys(ACL_FLOAT, {2, 6, 3}), yw(ACL_FLOAT, {2, 6, 3}),
      dy(ACL_FLOAT, {2, 6, 3}), dx(ACL_FLOAT, {2, 6, 3}), dgamma(ACL_FLOAT, {6}), dbeta(ACL_FLOAT, {6});
  fill(x, xv);
  fill(gamma, gv);
  fill(beta, bv);
  fill(dy, dyv);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormGetWorkspaceSize(x.get(), gamma.get(), beta.get(), 2, 6, 3, 3, 1e-5,
                                                    y.get(), mean.get(), rstd.get(), ws, ex);
            }),
            0);
  Vec m, rs;
  const Vec ref = groupNorm(xv, gv, bv, N, C, HW, G, 1e-5, &m, &rs);
  expectAll(y, ref, "GroupNorm");
  expectAll(mean, m, "GroupNorm mean", 1e-5);
  expectAll(rstd, rs, "GroupNorm rstd", 1e-5);
  auto swish = [](const Vec& v, double s) {
    Vec o(v.size());
    for (size_t i = 0; i < v.size(); ++i) o[i] = v[i] / (1 + std::exp(-s * v[i]));
    return o;
  };
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormSiluGetWorkspaceSize(x.get(), gamma.get(), beta.get(), 3, 1e-5, ys.get(),
                                                        mean.get(), rstd.get(), ws, ex);
            }),
            0);
  expectAll(ys, swish(ref, 1.0), "GroupNormSilu");
  char nchw[] = "NCHW";
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormSwishGetWorkspaceSize(x.get(), gamma.get(), beta.get(), 3, nchw, 1e-5,
                                                         true, 1.7, yw.get(), mean.get(), rstd.get(), ws, ex);
            }),
            0);
  expectAll(yw, swish(ref, 1.7), "GroupNormSwish");
  // Backward against finite differences, mean/rstd from the forward above.
  auto mask = bools({true, true, true});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormBackwardGetWorkspaceSize(dy.get(), x.get(), mean.get(), rstd.get(),
                                                            gamma.get(), 2, 6, 3, 3, mask.get(), dx.get(),
                                                            dgamma.get(), dbeta.get(), ws, ex);
            }),
            0);
  auto loss = [&](const Vec& v, const Vec& ga, const Vec& be, double s) {
    const Vec o = groupNorm(v, ga, be, N, C, HW, G, 1e-5);
    return dot(dyv, s == 0 ? o : swish(o, s));
  };
  expectAll(dx, numericGrad([&](const Vec& v) { return loss(v, gv, bv, 0); }, xv), "GroupNormBackward dx",
            2e-4);
  expectAll(dgamma, numericGrad([&](const Vec& v) { return loss(xv, v, bv, 0); }, gv), "dgamma", 2e-4);
  expectAll(dbeta, numericGrad([&](const Vec& v) { return loss(xv, gv, v, 0); }, bv), "dbeta", 2e-4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormSwishGradGetWorkspaceSize(
                  dy.get(), mean.get(), rstd.get(), x.get(), gamma.get(), beta.get(), 3, nullptr, 1.7, true,
                  true, dx.get(), dgamma.get(), dbeta.get(), ws, ex);
            }),
            0);
  expectAll(dx, numericGrad([&](const Vec& v) { return loss(v, gv, bv, 1.7); }, xv), "GroupNormSwishGrad dx",
            2e-4);
  expectAll(dgamma, numericGrad([&](const Vec& v) { return loss(xv, v, bv, 1.7); }, gv), "swish dgamma",
            2e-4);
  // Groups that do not divide C; NHWC data format.
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormGetWorkspaceSize(x.get(), gamma.get(), beta.get(), 2, 6, 3, 4, 1e-5,
                                                    y.get(), mean.get(), rstd.get(), ws, ex);
            }),
            kParamInvalid);
  char nhwc[] = "NHWC";
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupNormSwishGetWorkspaceSize(x.get(), gamma.get(), beta.get(), 3, nhwc, 1e-5,
                                                         true, 1.0, yw.get(), mean.get(), rstd.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(Norms, BatchNormTrainingInferenceAndGradients) {
  std::mt19937 g(9);
  const size_t N = 3, C = 2, HW = 4, M = N * HW;
  const Vec xv = randomVec(g, N * C * HW, -2, 2), wv = randomVec(g, C, 0.5, 1.5), bv = randomVec(g, C, -1, 1),
            dyv = randomVec(g, N * C * HW, -1, 1);
  auto chan = [&](size_t e) { return e / HW % C; };
  auto bn = [&](const Vec& x, const Vec& w, const Vec& b, Vec* mean, Vec* var) {
    Vec m(C, 0.0), v(C, 0.0), y(x.size());
    for (size_t e = 0; e < x.size(); ++e) m[chan(e)] += x[e] / M;
    for (size_t e = 0; e < x.size(); ++e) v[chan(e)] += (x[e] - m[chan(e)]) * (x[e] - m[chan(e)]) / M;
    for (size_t e = 0; e < x.size(); ++e)
      y[e] = (x[e] - m[chan(e)]) / std::sqrt(v[chan(e)] + 1e-5) * w[chan(e)] + b[chan(e)];
    if (mean) *mean = m;
    if (var) *var = v;
    return y;
  };
  HostTensorBuf x(ACL_FLOAT, {3, 2, 4}), w(ACL_FLOAT, {2}), b(ACL_FLOAT, {2}), rm(ACL_FLOAT, {2}),
      rv(ACL_FLOAT, {2}), y(ACL_FLOAT, {3, 2, 4}), sm(ACL_FLOAT, {2}), si(ACL_FLOAT, {2}),
      dy(ACL_FLOAT, {3, 2, 4}), dx(ACL_FLOAT, {3, 2, 4}), dw(ACL_FLOAT, {2}), db(ACL_FLOAT, {2});
  fill(x, xv);
  fill(w, wv);
  fill(b, bv);
  fill(rm, {0.5, -0.5});
  fill(rv, {2.0, 3.0});
  fill(dy, dyv);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormGetWorkspaceSize(x.get(), w.get(), b.get(), rm.get(), rv.get(), true, 0.1,
                                                    1e-5, y.get(), sm.get(), si.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  Vec m, v;
  expectAll(y, bn(xv, wv, bv, &m, &v), "BatchNorm training");
  expectAll(sm, m, "saveMean", 1e-5);
  expectAll(si, {1 / std::sqrt(v[0] + 1e-5), 1 / std::sqrt(v[1] + 1e-5)}, "saveInvstd", 1e-5);
  // Running statistics: (1 - momentum) r + momentum s, the variance unbiased (M / (M - 1)).
  expectAll(rm, {0.9 * 0.5 + 0.1 * m[0], 0.9 * -0.5 + 0.1 * m[1]}, "runningMean", 1e-6);
  const double ub = static_cast<double>(M) / (M - 1);
  expectAll(rv, {0.9 * 2.0 + 0.1 * v[0] * ub, 0.9 * 3.0 + 0.1 * v[1] * ub}, "runningVar", 1e-6);
  // Backward (training) against finite differences.
  auto mask = bools({true, true, true});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormBackwardGetWorkspaceSize(dy.get(), x.get(), w.get(), nullptr, nullptr,
                                                            sm.get(), si.get(), true, 1e-5, mask.get(),
                                                            dx.get(), dw.get(), db.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  expectAll(dx, numericGrad([&](const Vec& t) { return dot(dyv, bn(t, wv, bv, nullptr, nullptr)); }, xv),
            "dx", 2e-4);
  expectAll(dw, numericGrad([&](const Vec& t) { return dot(dyv, bn(xv, t, bv, nullptr, nullptr)); }, wv),
            "dw", 2e-4);
  expectAll(db, numericGrad([&](const Vec& t) { return dot(dyv, bn(xv, wv, t, nullptr, nullptr)); }, bv),
            "db", 2e-4);
  // Inference: the running statistics normalise; dx = dy * w / sqrt(runningVar + eps).
  fill(rm, {0.5, -0.5});
  fill(rv, {2.0, 3.0});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormGetWorkspaceSize(x.get(), w.get(), b.get(), rm.get(), rv.get(), false, 0.1,
                                                    1e-5, y.get(), nullptr, nullptr, ws, ex);
            }),
            0);
  Vec inf(xv.size()), dxi(xv.size());
  const Vec rmv{0.5, -0.5}, rvv{2.0, 3.0};
  for (size_t e = 0; e < xv.size(); ++e) {
    inf[e] = (xv[e] - rmv[chan(e)]) / std::sqrt(rvv[chan(e)] + 1e-5) * wv[chan(e)] + bv[chan(e)];
    dxi[e] = dyv[e] * wv[chan(e)] / std::sqrt(rvv[chan(e)] + 1e-5);
  }
  expectAll(y, inf, "BatchNorm inference");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormBackwardGetWorkspaceSize(dy.get(), x.get(), w.get(), rm.get(), rv.get(),
                                                            nullptr, nullptr, false, 1e-5, mask.get(),
                                                            dx.get(), dw.get(), db.get(), ws, ex);
            }),
            0);
  expectAll(dx, dxi, "BatchNormBackward inference dx");
  // Inference needs the running statistics.
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormGetWorkspaceSize(x.get(), w.get(), b.get(), nullptr, nullptr, false, 0.1,
                                                    1e-5, y.get(), nullptr, nullptr, ws, ex);
            }),
            kParamNull);
}

TEST(Norms, SyncBatchNormPiecesComposeToTheBatchNorm) {
  // Two "devices" with 2 and 3 samples of [*, 2, 3]: per-device sums, gathered statistics, the
  // reduce-backward sums and the element backward must give the single-device results.
  std::mt19937 g(10);
  const size_t C = 2, HW = 3;
  const Vec xa = randomVec(g, 2 * C * HW, -2, 2), xb = randomVec(g, 3 * C * HW, -2, 2);
  Vec all = xa;
  all.insert(all.end(), xb.begin(), xb.end());
  HostTensorBuf a(ACL_FLOAT, {2, 2, 3}), sa(ACL_FLOAT, {2}), qa(ACL_FLOAT, {2}), bb(ACL_FLOAT, {3, 2, 3}),
      sb(ACL_FLOAT, {2}), qb(ACL_FLOAT, {2});
  fill(a, xa);
  fill(bb, xb);
  for (auto [t, s, q] : {std::tuple{&a, &sa, &qa}, {&bb, &sb, &qb}}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnBatchNormReduceGetWorkspaceSize(t->get(), s->get(), q->get(), ws, ex);
              }),
              0);
  }
  double sum[2] = {}, sq[2] = {};
  const size_t total = 5 * HW;
  for (size_t e = 0; e < all.size(); ++e) {
    sum[e / HW % C] += all[e];
    sq[e / HW % C] += all[e] * all[e];
  }
  HostTensorBuf ts(ACL_FLOAT, {2, 2}), tq(ACL_FLOAT, {2, 2}), cnt(ACL_INT32, {2}), rm(ACL_FLOAT, {2}),
      rv(ACL_FLOAT, {2}), bm(ACL_FLOAT, {2}), bi(ACL_FLOAT, {2});
  fill(ts, {sa.get(0), sa.get(1), sb.get(0), sb.get(1)});
  fill(tq, {qa.get(0), qa.get(1), qb.get(0), qb.get(1)});
  fill(cnt, {6, 9});
  fill(rm, {0, 0});
  fill(rv, {1, 1});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSyncBatchNormGatherStatsGetWorkspaceSize(
                  ts.get(), tq.get(), cnt.get(), rm.get(), rv.get(), 0.1f, 1e-5f, bm.get(), bi.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  Vec mean(2), inv(2);
  for (size_t c = 0; c < 2; ++c) {
    mean[c] = sum[c] / total;
    inv[c] = 1 / std::sqrt(sq[c] / total - mean[c] * mean[c] + 1e-5);
  }
  expectAll(bm, mean, "batchMean", 1e-5);
  expectAll(bi, inv, "batchInvstd", 1e-4);
  expectAll(rm, {0.1 * mean[0], 0.1 * mean[1]}, "running mean", 1e-5);
  // The same statistics pooled from per-device mean/invstd with counts.
  HostTensorBuf dm(ACL_FLOAT, {2, 2}), di(ACL_FLOAT, {2, 2}), dc(ACL_FLOAT, {2}), ma(ACL_FLOAT, {2}),
      ia(ACL_FLOAT, {2});
  Vec devMean, devInv;
  for (const Vec* d : {&xa, &xb}) {
    const double n = static_cast<double>(d->size() / C);
    for (size_t c = 0; c < C; ++c) {
      double s = 0, s2 = 0;
      for (size_t e = 0; e < d->size(); ++e) {
        if (e / HW % C == c) {
          s += (*d)[e];
          s2 += (*d)[e] * (*d)[e];
        }
      }
      devMean.push_back(s / n);
      devInv.push_back(1 / std::sqrt(s2 / n - (s / n) * (s / n) + 1e-5));
    }
  }
  fill(dm, devMean);
  fill(di, devInv);
  fill(dc, {6, 9});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(
                  bb.get(), dm.get(), di.get(), nullptr, nullptr, 0.1, 1e-5, dc.get(), ma.get(), ia.get(), ws,
                  ex);
            }),
            0)
      << aclGetRecentErrMsg();
  expectAll(ma, mean, "meanAll", 1e-5);
  expectAll(ia, inv, "invstdAll", 1e-3);
  // Backward on device a: reduce (sumDy, sumDyXmu) then elemt with the global count, against the
  // training-mode gradient of the whole batch restricted to a's elements.
  const Vec dyAll = randomVec(g, all.size(), -1, 1);
  const Vec dya(dyAll.begin(), dyAll.begin() + static_cast<std::ptrdiff_t>(xa.size()));
  const Vec wv{1.3, 0.7};
  HostTensorBuf dy(ACL_FLOAT, {2, 2, 3}), mt(ACL_FLOAT, {2}), it(ACL_FLOAT, {2}), w(ACL_FLOAT, {2}),
      sdy(ACL_FLOAT, {2}), sdx(ACL_FLOAT, {2}), gw(ACL_FLOAT, {2}), gb(ACL_FLOAT, {2}),
      counter(ACL_INT32, {2}), dx(ACL_FLOAT, {2, 2, 3});
  fill(dy, dya);
  fill(mt, mean);
  fill(it, inv);
  fill(w, wv);
  fill(counter, {6, 9});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormReduceBackwardGetWorkspaceSize(dy.get(), a.get(), mt.get(), it.get(),
                                                                  w.get(), true, true, true, sdy.get(),
                                                                  sdx.get(), gw.get(), gb.get(), ws, ex);
            }),
            0);
  // The global sums are the two devices' sums; here device b's are added by hand.
  double gsd[2] = {sdy.get(0), sdy.get(1)}, gsx[2] = {sdx.get(0), sdx.get(1)};
  for (size_t e = 0; e < xb.size(); ++e) {
    gsd[e / HW % C] += dyAll[xa.size() + e];
    gsx[e / HW % C] += dyAll[xa.size() + e] * (xb[e] - mean[e / HW % C]);
  }
  fill(sdy, {gsd[0], gsd[1]});
  fill(sdx, {gsx[0], gsx[1]});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormElemtBackwardGetWorkspaceSize(dy.get(), a.get(), mt.get(), it.get(),
                                                                 w.get(), sdy.get(), sdx.get(), counter.get(),
                                                                 dx.get(), ws, ex);
            }),
            0);
  auto bnAll = [&](const Vec& x) {
    Vec m(C, 0.0), v(C, 0.0), y(x.size());
    for (size_t e = 0; e < x.size(); ++e) m[e / HW % C] += x[e] / total;
    for (size_t e = 0; e < x.size(); ++e)
      v[e / HW % C] += (x[e] - m[e / HW % C]) * (x[e] - m[e / HW % C]) / total;
    for (size_t e = 0; e < x.size(); ++e)
      y[e] = (x[e] - m[e / HW % C]) / std::sqrt(v[e / HW % C] + 1e-5) * wv[e / HW % C];
    return dot(dyAll, y);
  };
  const Vec full = numericGrad(bnAll, all);
  expectAll(dx, Vec(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(xa.size())), "elemt backward dx",
            1e-3);
  // BatchNormElemt normalises with given statistics.
  HostTensorBuf ye(ACL_FLOAT, {2, 2, 3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormElemtGetWorkspaceSize(a.get(), w.get(), nullptr, mt.get(), it.get(), 1e-5,
                                                         ye.get(), ws, ex);
            }),
            0);
  Vec want(xa.size());
  for (size_t e = 0; e < xa.size(); ++e)
    want[e] = (xa[e] - mean[e / HW % C]) * inv[e / HW % C] * wv[e / HW % C];
  expectAll(ye, want, "BatchNormElemt", 1e-4);
  // BnInferGrad in NHWC: the channel is the last dimension.
  HostTensorBuf gr(ACL_FLOAT, {2, 2, 3}), sc(ACL_FLOAT, {3}), var(ACL_FLOAT, {3}), xb2(ACL_FLOAT, {2, 2, 3});
  gr.fillRandom(g, -1, 1);
  fill(sc, {1, 2, 3});
  fill(var, {0.5, 1, 4});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBnInferGradGetWorkspaceSize(gr.get(), sc.get(), var.get(), 1e-4f, 1, xb2.get(), ws,
                                                      ex);
            }),
            0);
  Vec bi2(12);
  for (size_t e = 0; e < 12; ++e)
    bi2[e] = gr.get(static_cast<int64_t>(e)) * (e % 3 + 1) /
             std::sqrt(var.get(static_cast<int64_t>(e % 3)) + 1e-4);
  expectAll(xb2, bi2, "BnInferGrad NHWC", 1e-5);
}

TEST(Norms, VectorNormsAndRenorms) {
  HostTensorBuf x(ACL_FLOAT, {3, 4}), o1(ACL_FLOAT, {4}), o2(ACL_FLOAT, {1, 4}), o3(ACL_FLOAT, {3}),
      o4(ACL_FLOAT, {});
  fill(x, {1, -2, 0, 4, -3, 0, 0, 1, 2, 2, 0, -1});
  auto d0 = ints({0}), d1 = ints({-1}), none = ints({});
  auto p2 = scalar(2), pinf = scalar(INFINITY), p0 = scalar(0), p1 = scalar(1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNormGetWorkspaceSize(x.get(), p2.get(), d0.get(), false, o1.get(), ws, ex);
            }),
            0);
  expectAll(o1, {std::sqrt(14.0), std::sqrt(8.0), 0, std::sqrt(18.0)}, "2-norm over dim 0");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNormGetWorkspaceSize(x.get(), p0.get(), d0.get(), true, o2.get(), ws, ex);
            }),
            0);
  expectAll(o2, {3, 2, 0, 3}, "0-norm (non-zeros), keepdim");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgVectorNormGetWorkspaceSize(x.get(), pinf.get(), d1.get(), false, ACL_FLOAT,
                                                           o3.get(), ws, ex);
            }),
            0);
  expectAll(o3, {4, 3, 2}, "inf-norm over the last dim");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgVectorNormGetWorkspaceSize(x.get(), p1.get(), none.get(), false, ACL_FLOAT,
                                                           o4.get(), ws, ex);
            }),
            0);
  expectAll(o4, {16}, "1-norm of everything");
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnNormGetWorkspaceSize(x.get(), p2.get(), d0.get(), true, o1.get(), ws, ex);
            }),
            kParamInvalid);
  // Renorm along dim 0 (rows), maxNorm 3 with p = 1: rows over 3 scale to 3 / (norm + 1e-7).
  HostTensorBuf out(ACL_FLOAT, {3, 4});
  auto m3 = scalar(3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRenormGetWorkspaceSize(x.get(), p1.get(), 0, m3.get(), out.get(), ws, ex);
            }),
            0);
  const Vec xs = values(x);
  Vec want = xs;
  const double norms[3] = {7, 4, 5};
  for (size_t e = 0; e < 12; ++e) want[e] *= 3 / (norms[e / 4] + 1e-7);
  expectAll(out, want, "Renorm");
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceRenormGetWorkspaceSize(x.get(), p1.get(), 0, m3.get(), ws, ex);
            }),
            0);
  expectAll(x, want, "InplaceRenorm");
  // EmbeddingRenorm: named rows (each once) over maxNorm 1 in the 2-norm.
  HostTensorBuf emb(ACL_FLOAT, {3, 2}), idx(ACL_INT64, {3});
  fill(emb, {3, 4, 0.3, 0.4, 6, 8});
  fill(idx, {0, 0, 1});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEmbeddingRenormGetWorkspaceSize(emb.get(), idx.get(), 1.0, 2.0, ws, ex);
            }),
            0);
  expectAll(emb, {3 / (5 + 1e-7), 4 / (5 + 1e-7), 0.3, 0.4, 6, 8}, "EmbeddingRenorm");
  // LpNormV3: x / (sum |x|^p + 1e-6)^(1/p) per index of axis 0.
  HostTensorBuf lx(ACL_FLOAT, {2, 3}), ly(ACL_FLOAT, {2, 3});
  fill(lx, {3, 0, 4, 1, 1, 1});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLpNormV3GetWorkspaceSize(lx.get(), 2.0f, 0, ly.get(), ws, ex);
            }),
            0);
  const double n0 = std::sqrt(25 + 1e-6), n1 = std::sqrt(3 + 1e-6);
  expectAll(ly, {3 / n0, 0, 4 / n0, 1 / n1, 1 / n1, 1 / n1}, "LpNormV3");
}

TEST(Norms, MaskedSoftmaxesAndTheGradient) {
  std::mt19937 g(11);
  // x [2, 3, 2, 4], mask [1, 3, 2, 4] broadcast over B; masked positions take -10000.
  HostTensorBuf x(ACL_FLOAT, {2, 3, 2, 4}), mask(ACL_BOOL, {1, 3, 2, 4}), y(ACL_FLOAT, {2, 3, 2, 4}),
      dy(ACL_FLOAT, {2, 3, 2, 4}), dx(ACL_FLOAT, {2, 3, 2, 4});
  x.fillRandom(g, -2, 2);
  dy.fillRandom(g, -1, 1);
  for (int64_t i = 0; i < 24; ++i) mask.set(i, (i * 7) % 5 == 0 ? 1 : 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScaledMaskedSoftmaxGetWorkspaceSize(x.get(), mask.get(), 0.5, false, y.get(), ws,
                                                              ex);
            }),
            0)
      << aclGetRecentErrMsg();
  Vec want(48), grad(48);
  for (size_t r = 0; r < 12; ++r) {
    double z[4], mx = -1e300, s = 0, sdy = 0;
    for (size_t i = 0; i < 4; ++i) {
      const size_t e = r * 4 + i;
      z[i] = mask.get(static_cast<int64_t>(e % 24)) != 0 ? -10000.0 : 0.5 * x.get(static_cast<int64_t>(e));
      mx = std::max(mx, z[i]);
    }
    for (double& v : z) s += (v = std::exp(v - mx));
    for (size_t i = 0; i < 4; ++i) want[r * 4 + i] = z[i] / s;
    for (size_t i = 0; i < 4; ++i) sdy += dy.get(static_cast<int64_t>(r * 4 + i)) * want[r * 4 + i];
    for (size_t i = 0; i < 4; ++i) {
      const size_t e = r * 4 + i;
      grad[e] = mask.get(static_cast<int64_t>(e % 24)) != 0
                    ? 0
                    : (dy.get(static_cast<int64_t>(e)) * want[e] - sdy * want[e]) * 0.5;
    }
  }
  expectAll(y, want, "ScaledMaskedSoftmax");
  fill(y, want);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(dy.get(), y.get(), mask.get(), 0.5,
                                                                      false, dx.get(), ws, ex);
            }),
            0);
  expectAll(dx, grad, "ScaledMaskedSoftmaxBackward", 1e-5);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnScaledMaskedSoftmaxGetWorkspaceSize(x.get(), mask.get(), 0.5, true, y.get(), ws,
                                                              ex);
            }),
            kParamInvalid);
  // Rel-pos bias: x [B=2, W=2, N=3, 2, 2], mask [W, 2, 2], bias [N, 2, 2].
  HostTensorBuf rx(ACL_FLOAT, {2, 2, 3, 2, 2}), rm(ACL_FLOAT, {2, 2, 2}), rb(ACL_FLOAT, {3, 2, 2}),
      ro(ACL_FLOAT, {2, 2, 3, 2, 2});
  rx.fillRandom(g, -2, 2);
  rm.fillRandom(g, -1, 0);
  rb.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(rx.get(), rm.get(), rb.get(), 0.8, 0,
                                                                      ro.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  Vec rw(48);
  for (size_t r = 0; r < 24; ++r) {
    double z[2], s = 0;
    for (size_t i = 0; i < 2; ++i) {
      const size_t e = r * 2 + i, k = e % 4, n = e / 4 % 3, w = e / 12 % 2;
      z[i] = 0.8 * rx.get(static_cast<int64_t>(e)) + rm.get(static_cast<int64_t>(w * 4 + k)) +
             rb.get(static_cast<int64_t>(n * 4 + k));
    }
    for (double& v : z) s += (v = std::exp(v));
    for (size_t i = 0; i < 2; ++i) rw[r * 2 + i] = z[i] / s;
  }
  expectAll(ro, rw, "MaskedSoftmaxWithRelPosBias");
  // Empty rows (S2 = 0) are accepted and compute nothing.
  HostTensorBuf ex0(ACL_FLOAT, {2, 3, 2, 0}), em(ACL_FLOAT, {2, 2, 0}), eb(ACL_FLOAT, {3, 2, 0}),
      eo(ACL_FLOAT, {2, 3, 2, 0});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(ex0.get(), em.get(), eb.get(), 0.8, 0,
                                                                      eo.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
}

TEST(Norms, ErrorsAreTheDocumentedCodes) {
  HostTensorBuf x(ACL_FLOAT, {2, 8}), xi(ACL_INT32, {2, 8}), gamma(ACL_FLOAT, {8}), g4(ACL_FLOAT, {4}),
      y(ACL_FLOAT, {2, 8}), rstd(ACL_FLOAT, {2, 1}), r3(ACL_FLOAT, {3, 1}), xo(ACL_FLOAT, {2, 8}),
      rh(ACL_FLOAT16, {2, 1});
  auto addRms = [&](const aclTensor* a, const aclTensor* gm, const aclTensor* r) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnAddRmsNormGetWorkspaceSize(a, x.get(), gm, 1e-6, y.get(), const_cast<aclTensor*>(r),
                                             xo.get(), ws, ex);
    });
  };
  EXPECT_EQ(addRms(nullptr, gamma.get(), rstd.get()), kParamNull);
  EXPECT_EQ(addRms(x.get(), nullptr, rstd.get()), kParamNull);
  EXPECT_EQ(addRms(xi.get(), gamma.get(), rstd.get()), kParamInvalid);  // int32 data
  EXPECT_EQ(addRms(x.get(), g4.get(), rstd.get()), kParamInvalid);      // gamma not x's trailing dims
  EXPECT_EQ(addRms(x.get(), gamma.get(), r3.get()), kParamInvalid);     // rstd not one per row
  EXPECT_EQ(addRms(x.get(), gamma.get(), rh.get()), kParamInvalid);     // rstd not fp32
  EXPECT_EQ(addRms(x.get(), gamma.get(), rstd.get()), 0);
  // Batch norm on a 1-D tensor (no channel dimension); BnInferGrad with an unknown format.
  HostTensorBuf v(ACL_FLOAT, {8}), c(ACL_FLOAT, {8}), s(ACL_FLOAT, {8});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBatchNormReduceGetWorkspaceSize(v.get(), c.get(), s.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf gr(ACL_FLOAT, {1, 2, 2, 2}), sc(ACL_FLOAT, {2}), out(ACL_FLOAT, {1, 2, 2, 2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBnInferGradGetWorkspaceSize(gr.get(), sc.get(), sc.get(), 1e-4f, 5, out.get(), ws,
                                                      ex);
            }),
            kParamInvalid);
}

TEST(Norms, CostModelReadsAndWritesEachTensorOnce) {
  // AddRmsNorm over [64, 1024] fp16: reads x1, x2, gamma; writes y, x and the fp32 rstd.
  HostTensorBuf x1(ACL_FLOAT16, {64, 1024}), x2(ACL_FLOAT16, {64, 1024}), gamma(ACL_FLOAT16, {1024}),
      y(ACL_FLOAT16, {64, 1024}), rstd(ACL_FLOAT, {64, 1}), xo(ACL_FLOAT16, {64, 1024});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddRmsNormGetWorkspaceSize(x1.get(), x2.get(), gamma.get(), 1e-6, y.get(), rstd.get(),
                                            xo.get(), &ws, &ex),
            0);
  const Charged c = chargedBytes(ex);
  const uint64_t X = 64 * 1024 * 2;
  EXPECT_EQ(c.read, 2 * X + 1024 * 2);
  EXPECT_EQ(c.written, 2 * X + 64 * 4);
  // Three vector passes (square-sum, scale, gamma) over x's elements, each streaming one element
  // of every input per element and the tile's writes.
  EXPECT_EQ(c.vector, 3 * (64 * 1024 * (2 + 2 + 2) + c.written));
}
