// The operators a transformer layer needs, run on host memory (phase 1 + the operator's kernel)
// against plain double-precision references written here: elementwise and activations,
// division and extrema, softmax, RMS norm, SwiGLU, rotary embedding, Mm / BatchMatMul, flash
// attention (causal, grouped-query, decoding) and data movement; plus their argument checks.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_tanh.h"

using namespace aclnn_test;

namespace {

using Phase1 = std::function<int(uint64_t*, aclOpExecutor**)>;



using UnaryCall = int (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);

void checkUnary(UnaryCall call, double (*ref)(double), aclDataType dt, double lo, double hi, const char* name) {
  std::mt19937 g(7);
  HostTensorBuf x(dt, {3, 37}), y(dt, {3, 37});
  x.fillRandom(g, lo, hi);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return call(x.get(), y.get(), ws, ex); }), 0);
  for (int64_t i = 0; i < x.numel(); ++i) expectNear(y.get(i), y.stored(ref(x.get(i))), dt, name);
}

}  // namespace

TEST(TransformerOps, ElementwiseFunctionsMatchTheirDefinitions) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    checkUnary(aclnnExpGetWorkspaceSize, [](double v) { return std::exp(v); }, dt, -4, 4, "exp");
    checkUnary(aclnnLogGetWorkspaceSize, [](double v) { return std::log(v); }, dt, 0.1, 9, "log");
    checkUnary(aclnnSqrtGetWorkspaceSize, [](double v) { return std::sqrt(v); }, dt, 0, 9, "sqrt");
    checkUnary(aclnnRsqrtGetWorkspaceSize, [](double v) { return 1 / std::sqrt(v); }, dt, 0.1, 9, "rsqrt");
    checkUnary(aclnnNegGetWorkspaceSize, [](double v) { return -v; }, dt, -4, 4, "neg");
    checkUnary(aclnnAbsGetWorkspaceSize, [](double v) { return std::fabs(v); }, dt, -4, 4, "abs");
    checkUnary(aclnnTanhGetWorkspaceSize, [](double v) { return std::tanh(v); }, dt, -4, 4, "tanh");
    checkUnary(aclnnSigmoidGetWorkspaceSize, [](double v) { return 1 / (1 + std::exp(-v)); }, dt, -6, 6, "sigmoid");
    checkUnary(aclnnSiluGetWorkspaceSize, [](double v) { return v / (1 + std::exp(-v)); }, dt, -6, 6, "silu");
    // ops-nn defines aclnnGelu as the tanh approximation (it differs from the erf form by up to ~5e-4).
    checkUnary(aclnnGeluGetWorkspaceSize,
               [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))); },
               dt, -5, 5, "gelu");
  }
  // Integers: Neg and Abs stay integers (wrapping), Exp of an int32 tensor needs a float out.
  checkUnary(aclnnNegGetWorkspaceSize, [](double v) { return -v; }, ACL_INT32, -100, 100, "neg int32");
  HostTensorBuf xi(ACL_INT32, {4}), yi(ACL_INT32, {4}), yf(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) xi.set(i, i);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnExpGetWorkspaceSize(xi.get(), yi.get(), ws, ex); }),
            161002);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnExpGetWorkspaceSize(xi.get(), yf.get(), ws, ex); }),
            0);
  EXPECT_FLOAT_EQ(static_cast<float>(yf.get(3)), std::exp(3.0f));
  // Null and shape errors carry the documented codes.
  HostTensorBuf wrong(ACL_FLOAT, {5});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSiluGetWorkspaceSize(nullptr, yf.get(), ws, ex); }),
            161001);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSiluGetWorkspaceSize(yf.get(), wrong.get(), ws, ex); }),
            161002);
}

TEST(TransformerOps, DivisionAndExtremaBroadcast) {
  HostTensorBuf a(ACL_INT32, {2, 3}), b(ACL_INT32, {3}), q(ACL_FLOAT, {2, 3}), qi(ACL_INT32, {2, 3});
  for (int i = 0; i < 6; ++i) a.set(i, i + 1);
  for (int i = 0; i < 3; ++i) b.set(i, 2 + i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnDivGetWorkspaceSize(a.get(), b.get(), q.get(), ws, ex); }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(static_cast<float>(q.get(i)), float(i + 1) / float(2 + i % 3)) << i;
  // True division cannot be written to an integer tensor.
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnDivGetWorkspaceSize(a.get(), b.get(), qi.get(), ws, ex); }),
            161002);
  HostTensorBuf x(ACL_FLOAT16, {4}), y(ACL_FLOAT16, {4}), mx(ACL_FLOAT16, {4}), mn(ACL_FLOAT16, {4});
  const double xs[] = {1, -2, NAN, 4}, ys[] = {0.5, 3, 1, -8};
  for (int i = 0; i < 4; ++i) {
    x.set(i, xs[i]);
    y.set(i, ys[i]);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnMaximumGetWorkspaceSize(x.get(), y.get(), mx.get(), ws, ex); }), 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnMinimumGetWorkspaceSize(x.get(), y.get(), mn.get(), ws, ex); }), 0);
  EXPECT_EQ(mx.get(0), 1);
  EXPECT_EQ(mx.get(1), 3);
  EXPECT_TRUE(std::isnan(mx.get(2)));
  EXPECT_EQ(mx.get(3), 4);
  EXPECT_EQ(mn.get(0), 0.5);
  EXPECT_EQ(mn.get(3), -8);
  EXPECT_TRUE(std::isnan(mn.get(2)));
}

TEST(TransformerOps, SoftmaxAndLogSoftmaxAlongAnyDim) {
  std::mt19937 g(3);
  for (int64_t dim : {0, 1, -1}) {
    HostTensorBuf x(ACL_FLOAT, {3, 5, 4}), y(ACL_FLOAT, {3, 5, 4}), ly(ACL_FLOAT, {3, 5, 4});
    x.fillRandom(g, -5, 5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSoftmaxGetWorkspaceSize(x.get(), dim, y.get(), ws, ex); }), 0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnLogSoftmaxGetWorkspaceSize(x.get(), dim, ly.get(), ws, ex); }), 0);
    const int64_t d = dim < 0 ? dim + 3 : dim;
    const int64_t shape[3] = {3, 5, 4};
    for (int64_t i = 0; i < 60; ++i) {
      int64_t idx[3] = {i / 20, (i / 4) % 5, i % 4};
      double sum = 0;
      for (int64_t k = 0; k < shape[d]; ++k) {
        int64_t j[3] = {idx[0], idx[1], idx[2]};
        j[d] = k;
        sum += std::exp(x.get(j[0] * 20 + j[1] * 4 + j[2]));
      }
      expectNear(y.get(i), std::exp(x.get(i)) / sum, ACL_FLOAT, "softmax");
      EXPECT_NEAR(ly.get(i), x.get(i) - std::log(sum), 1e-5) << "log_softmax";
    }
  }
  HostTensorBuf x(ACL_FLOAT, {3}), y(ACL_FLOAT, {3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSoftmaxGetWorkspaceSize(x.get(), 1, y.get(), ws, ex); }),
            161002);
}

TEST(TransformerOps, RmsNormNormalisesTheTrailingDims) {
  std::mt19937 g(5);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {2, 3, 16}), gamma(dt, {16}), y(dt, {2, 3, 16}), rstd(ACL_FLOAT, {2, 3, 1});
    x.fillRandom(g, -3, 3);
    gamma.fillRandom(g, 0.5, 1.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnRmsNormGetWorkspaceSize(x.get(), gamma.get(), 1e-6, y.get(), rstd.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t r = 0; r < 6; ++r) {
      double ss = 0;
      for (int64_t i = 0; i < 16; ++i) ss += x.get(r * 16 + i) * x.get(r * 16 + i);
      const double rs = 1 / std::sqrt(ss / 16 + 1e-6);
      EXPECT_NEAR(rstd.get(r), rs, 1e-5 * rs);
      for (int64_t i = 0; i < 16; ++i) expectNear(y.get(r * 16 + i), x.get(r * 16 + i) * rs * gamma.get(i), dt, "rms");
    }
  }
  HostTensorBuf x(ACL_FLOAT, {2, 8}), g8(ACL_FLOAT, {4}), y(ACL_FLOAT, {2, 8}), rstd(ACL_FLOAT, {2, 1}),
      rstdBad(ACL_FLOAT, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRmsNormGetWorkspaceSize(x.get(), g8.get(), 1e-6, y.get(), rstd.get(), ws, ex);
            }),
            161002);
  HostTensorBuf gam(ACL_FLOAT, {8});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRmsNormGetWorkspaceSize(x.get(), gam.get(), 1e-6, y.get(), rstdBad.get(), ws, ex);
            }),
            161002);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRmsNormGetWorkspaceSize(x.get(), nullptr, 1e-6, y.get(), rstd.get(), ws, ex);
            }),
            161001);
}

TEST(TransformerOps, SwiGluGatesTheSecondHalfWithSiluOfTheFirst) {
  // The public example's input: x = 0..63 as [2, 32], dim -1.
  HostTensorBuf x(ACL_FLOAT, {2, 32}), out(ACL_FLOAT, {2, 16}), bad(ACL_FLOAT, {2, 32});
  for (int i = 0; i < 64; ++i) x.set(i, i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSwiGluGetWorkspaceSize(x.get(), -1, out.get(), ws, ex); }), 0);
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < 16; ++i) {
      const double a = r * 32 + i, b = r * 32 + 16 + i;
      expectNear(out.get(r * 16 + i), a / (1 + std::exp(-a)) * b, ACL_FLOAT, "swiglu");
    }
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSwiGluGetWorkspaceSize(x.get(), -1, bad.get(), ws, ex); }),
            161002);
}

TEST(TransformerOps, RotaryEmbeddingHalfAndInterleaved) {
  std::mt19937 g(11);
  const int64_t B = 1, S = 3, N = 2, D = 8;
  for (int64_t mode : {0, 1}) {
    HostTensorBuf x(ACL_FLOAT, {B, S, N, D}), c(ACL_FLOAT, {1, S, 1, D}), s(ACL_FLOAT, {1, S, 1, D}),
        y(ACL_FLOAT, {B, S, N, D});
    x.fillRandom(g, -1, 1);
    c.fillRandom(g, -1, 1);
    s.fillRandom(g, -1, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), c.get(), s.get(), mode, y.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t si = 0; si < S; ++si) {
      for (int64_t n = 0; n < N; ++n) {
        const int64_t base = (si * N + n) * D;
        for (int64_t d = 0; d < D; ++d) {
          double rot;
          if (mode == 0)
            rot = d < D / 2 ? -x.get(base + d + D / 2) : x.get(base + d - D / 2);
          else
            rot = d % 2 == 0 ? -x.get(base + d + 1) : x.get(base + d - 1);
          const double want = x.get(base + d) * c.get(si * D + d) + rot * s.get(si * D + d);
          EXPECT_NEAR(y.get(base + d), want, 1e-6) << "mode " << mode;
        }
      }
    }
  }
  HostTensorBuf x(ACL_FLOAT, {1, 3, 2, 8}), c(ACL_FLOAT, {1, 4, 1, 8}), y(ACL_FLOAT, {1, 3, 2, 8});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), c.get(), c.get(), 0, y.get(), ws, ex);
            }),
            161002);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), x.get(), x.get(), 7, y.get(), ws, ex);
            }),
            161002);
}

TEST(TransformerOps, MmAndBatchMatMulMultiplyAndCheckRanks) {
  std::mt19937 g(13);
  HostTensorBuf a(ACL_FLOAT16, {2, 5, 7}), b(ACL_FLOAT16, {2, 7, 3}), c(ACL_FLOAT16, {2, 5, 3});
  a.fillRandom(g, -1, 1);
  b.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnBatchMatMulGetWorkspaceSize(a.get(), b.get(), c.get(), 0, ws, ex); }), 0);
  for (int64_t bt = 0; bt < 2; ++bt)
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < 7; ++k) acc += a.get(bt * 35 + i * 7 + k) * b.get(bt * 21 + k * 3 + j);
        expectNear(c.get(bt * 15 + i * 3 + j), acc, ACL_FLOAT16, "bmm");
      }
  HostTensorBuf m1(ACL_FLOAT, {4, 6}), m2(ACL_FLOAT, {6, 2}), mo(ACL_FLOAT, {4, 2});
  m1.fillRandom(g, -1, 1);
  m2.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnMmGetWorkspaceSize(m1.get(), m2.get(), mo.get(), 0, ws, ex); }), 0);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < 6; ++k) acc += m1.get(i * 6 + k) * m2.get(k * 2 + j);
      EXPECT_NEAR(mo.get(i * 2 + j), acc, 1e-5);
    }
  // Mm takes 2-D operands only, BatchMatMul 3-D only.
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnMmGetWorkspaceSize(a.get(), b.get(), c.get(), 0, ws, ex); }), 161002);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnBatchMatMulGetWorkspaceSize(m1.get(), m2.get(), mo.get(), 0, ws, ex); }),
            161002);
}

namespace {

// Reference attention for one layout-free problem: q [B][S1][N][D], k/v [B][S2][Nkv][D]
// (BSND element order), causal from the bottom right when `causal`.
std::vector<double> refAttention(HostTensorBuf& q, HostTensorBuf& k, HostTensorBuf& v, int64_t B, int64_t S1,
                                 int64_t S2, int64_t N, int64_t Nkv, int64_t D, double scale, bool causal) {
  std::vector<double> out(static_cast<size_t>(B * S1 * N * D), 0.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t n = 0; n < N; ++n) {
      const int64_t kn = n / (N / Nkv);
      for (int64_t i = 0; i < S1; ++i) {
        std::vector<double> p(static_cast<size_t>(S2));
        double mx = -1e300, sum = 0;
        const int64_t last = causal ? i + (S2 - S1) : S2 - 1;
        for (int64_t j = 0; j <= last; ++j) {
          double s = 0;
          for (int64_t d = 0; d < D; ++d)
            s += q.get(((b * S1 + i) * N + n) * D + d) * k.get(((b * S2 + j) * Nkv + kn) * D + d);
          p[static_cast<size_t>(j)] = s * scale;
          mx = std::max(mx, s * scale);
        }
        for (int64_t j = 0; j <= last; ++j) sum += (p[static_cast<size_t>(j)] = std::exp(p[static_cast<size_t>(j)] - mx));
        for (int64_t d = 0; d < D; ++d) {
          double o = 0;
          for (int64_t j = 0; j <= last; ++j) o += p[static_cast<size_t>(j)] / sum * v.get(((b * S2 + j) * Nkv + kn) * D + d);
          out[static_cast<size_t>(((b * S1 + i) * N + n) * D + d)] = o;
        }
      }
    }
  return out;
}

int fas(HostTensorBuf& q, HostTensorBuf& k, HostTensorBuf& v, aclTensor* mask, double scale, int64_t heads,
        const char* layout, int64_t sparse, HostTensorBuf& mx, HostTensorBuf& sm, HostTensorBuf& out) {
  std::string l = layout;
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnFlashAttentionScoreGetWorkspaceSize(q.get(), k.get(), v.get(), nullptr, nullptr, nullptr, mask, nullptr,
                                                    scale, 1.0, 2147483647, sparse == 0 && mask ? 0 : 2147483647, heads,
                                                    l.data(), 0, sparse, mx.get(), sm.get(), nullptr, out.get(), ws, ex);
  });
}

}  // namespace

TEST(TransformerOps, FlashAttentionCausalGroupedQueryAndDecode) {
  std::mt19937 g(17);
  const int64_t B = 2, S = 9, N = 4, Nkv = 2, D = 8;
  const double scale = 1 / std::sqrt(static_cast<double>(D));
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    // BSND with grouped-query heads, causal (sparse mode 3, its compressed mask given).
    HostTensorBuf q(dt, {B, S, N, D}), k(dt, {B, S, Nkv, D}), v(dt, {B, S, Nkv, D}), o(dt, {B, S, N, D}),
        mx(ACL_FLOAT, {B, N, S, 8}), sm(ACL_FLOAT, {B, N, S, 8}), mask(ACL_UINT8, {2048, 2048});
    q.fillRandom(g, -1, 1);
    k.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    ASSERT_EQ(fas(q, k, v, mask.get(), scale, N, "BSND", 3, mx, sm, o), 0) << aclGetRecentErrMsg();
    const std::vector<double> want = refAttention(q, k, v, B, S, S, N, Nkv, D, scale, true);
    const double t = dt == ACL_FLOAT ? 1e-5 : dt == ACL_FLOAT16 ? 4e-3 : 3e-2;
    for (int64_t i = 0; i < o.numel(); ++i) EXPECT_NEAR(o.get(i), want[static_cast<size_t>(i)], t) << i;
  }
  // The same causal problem in BSH through an explicit upper-triangular mask (sparse mode 0).
  HostTensorBuf q(ACL_FLOAT, {B, S, N * D}), k(ACL_FLOAT, {B, S, Nkv * D}), v(ACL_FLOAT, {B, S, Nkv * D}),
      o(ACL_FLOAT, {B, S, N * D}), mx(ACL_FLOAT, {B, N, S, 8}), sm(ACL_FLOAT, {B, N, S, 8}), mask(ACL_BOOL, {S, S});
  q.fillRandom(g, -1, 1);
  k.fillRandom(g, -1, 1);
  v.fillRandom(g, -1, 1);
  for (int64_t i = 0; i < S; ++i)
    for (int64_t j = 0; j < S; ++j) mask.set(i * S + j, j > i ? 1 : 0);
  ASSERT_EQ(fas(q, k, v, mask.get(), scale, N, "BSH", 0, mx, sm, o), 0) << aclGetRecentErrMsg();
  std::vector<double> want = refAttention(q, k, v, B, S, S, N, Nkv, D, scale, true);
  for (int64_t i = 0; i < o.numel(); ++i) EXPECT_NEAR(o.get(i), want[static_cast<size_t>(i)], 1e-5) << i;
  // softmaxMax holds each row's scaled maximum 8 times: row 0 sees key 0 only.
  double s00 = 0;
  for (int64_t d = 0; d < D; ++d) s00 += q.get(d) * k.get(d);
  for (int e = 0; e < 8; ++e) EXPECT_NEAR(mx.get(e), s00 * scale, 1e-5);
  EXPECT_NEAR(sm.get(0), 1.0, 1e-6);

  // Decoding: one query against 9 cached keys, no mask.
  HostTensorBuf q1(ACL_FLOAT, {B, 1, N * D}), o1(ACL_FLOAT, {B, 1, N * D}), mx1(ACL_FLOAT, {B, N, 1, 8}),
      sm1(ACL_FLOAT, {B, N, 1, 8});
  q1.fillRandom(g, -1, 1);
  ASSERT_EQ(fas(q1, k, v, nullptr, scale, N, "BSH", 0, mx1, sm1, o1), 0) << aclGetRecentErrMsg();
  want = refAttention(q1, k, v, B, 1, S, N, Nkv, D, scale, false);
  for (int64_t i = 0; i < o1.numel(); ++i) EXPECT_NEAR(o1.get(i), want[static_cast<size_t>(i)], 1e-5) << i;

  // Errors: unknown layout, heads not dividing, unsupported sparse mode, null output.
  EXPECT_EQ(fas(q, k, v, nullptr, scale, N, "XYZ", 0, mx, sm, o), 161002);
  EXPECT_EQ(fas(q, k, v, nullptr, scale, 3, "BSH", 0, mx, sm, o), 161002);
  EXPECT_EQ(fas(q, k, v, nullptr, scale, N, "BSH", 5, mx, sm, o), 161002);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              char l[] = "BSH";
              return aclnnFlashAttentionScoreGetWorkspaceSize(q.get(), k.get(), v.get(), nullptr, nullptr, nullptr,
                                                              nullptr, nullptr, scale, 1.0, 0, 0, N, l, 0, 0, mx.get(),
                                                              sm.get(), nullptr, nullptr, ws, ex);
            }),
            161001);
}

TEST(TransformerOps, DataMovementCastSlicePermuteCatCopy) {
  HostTensorBuf x(ACL_FLOAT, {2, 3, 4}), h(ACL_FLOAT16, {2, 3, 4}), i32(ACL_INT32, {2, 3, 4});
  for (int i = 0; i < 24; ++i) x.set(i, i * 1.7 - 20);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnCastGetWorkspaceSize(x.get(), ACL_FLOAT16, h.get(), ws, ex); }), 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnCastGetWorkspaceSize(x.get(), ACL_INT32, i32.get(), ws, ex); }), 0);
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(h.get(i), h.stored(x.get(i)));
    EXPECT_EQ(i32.get(i), std::trunc(x.get(i)));  // toward zero
  }
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnCastGetWorkspaceSize(x.get(), ACL_INT32, h.get(), ws, ex); }), 161002);

  HostTensorBuf sl(ACL_FLOAT, {2, 2, 4});  // x[:, 0:3:2, :]
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSliceGetWorkspaceSize(x.get(), 1, 0, 3, 2, sl.get(), ws, ex); }), 0);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c) EXPECT_EQ(sl.get((a * 2 + b) * 4 + c), x.get((a * 3 + b * 2) * 4 + c));

  HostTensorBuf p(ACL_FLOAT, {4, 2, 3});
  std::vector<int64_t> dims{2, 0, 1};
  aclIntArray* perm = aclCreateIntArray(dims.data(), dims.size());
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnPermuteGetWorkspaceSize(x.get(), perm, p.get(), ws, ex); }), 0);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) EXPECT_EQ(p.get((c * 2 + a) * 3 + b), x.get((a * 3 + b) * 4 + c));
  aclDestroyIntArray(perm);

  HostTensorBuf y(ACL_FLOAT, {2, 1, 4}), cat(ACL_FLOAT, {2, 4, 4});
  for (int i = 0; i < 8; ++i) y.set(i, 100 + i);
  const aclTensor* parts[] = {listHandle(x), listHandle(y)};
  aclTensorList* list = aclCreateTensorList(parts, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnCatGetWorkspaceSize(list, 1, cat.get(), ws, ex); }), 0);
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 4; ++c) {
      for (int b = 0; b < 3; ++b) EXPECT_EQ(cat.get((a * 4 + b) * 4 + c), x.get((a * 3 + b) * 4 + c));
      EXPECT_EQ(cat.get((a * 4 + 3) * 4 + c), y.get(a * 4 + c));
    }
  HostTensorBuf catBad(ACL_FLOAT, {2, 5, 4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnCatGetWorkspaceSize(list, 1, catBad.get(), ws, ex); }), 161002);

  // InplaceCopy into one row of a [2, 5, 4] cache (a strided view), broadcasting a [4] source.
  HostTensorBuf cache(ACL_FLOAT16, {2, 1, 4}, {20, 4, 1}, 8), src(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) src.set(i, 0.5 * i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceCopyGetWorkspaceSize(cache.get(), src.get(), ws, ex); }), 0);
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(cache.get(a * 4 + c), 0.5 * c);
  aclDestroyTensorList(list);
}
