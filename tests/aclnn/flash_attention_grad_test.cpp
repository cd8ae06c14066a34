// aclnnFlashAttentionScoreGrad[V2] / aclnnFlashAttentionUnpaddingScoreGrad[V4]: gradients
// against central finite differences of an attention forward written here (in double), against
// the closed-form backward, in fp32/fp16/bf16, with masks, causal modes, grouped key/value heads,
// the layouts BSH, SBH, BNSD, BSND and TND; bad input; the simulated time from the cube rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_flash_attention_score_grad.h"

using aclnn_test::DeviceBuf;
using aclnn_test::HostTensorBuf;

namespace {

// A problem: per batch b, S1[b] queries and S2[b] keys; N query heads, Nkv key/value heads.
struct Problem {
  std::string layout;  // BSH, SBH, BSND, BNSD, TND
  int64_t N = 1, Nkv = 1, D = 8;
  std::vector<int64_t> S1, S2;
  double scale = 0.3;
  int64_t sparseMode = 0, preTokens = INT_MAX, nextTokens = INT_MAX;
  std::vector<uint8_t> mask;  // [S1max, S2max], 1 = masked; empty = none
  int64_t B() const { return static_cast<int64_t>(S1.size()); }
  bool tnd() const { return layout == "TND"; }
  int64_t rows(const std::vector<int64_t>& s) const {  // T for TND, S for padded layouts
    int64_t t = 0;
    for (int64_t x : s) t = tnd() ? t + x : std::max(t, x);
    return t;
  }
  std::vector<int64_t> shape(const std::vector<int64_t>& s, int64_t heads) const {
    const int64_t S = rows(s), b = B();
    if (tnd()) return {S, heads, D};
    if (layout == "BSH") return {b, S, heads * D};
    if (layout == "SBH") return {S, b, heads * D};
    if (layout == "BSND") return {b, S, heads, D};
    return {b, heads, S, D};
  }
  // Row-major index of element (b, i, n, d) of a tensor over sequences s with `heads` heads.
  int64_t index(const std::vector<int64_t>& s, int64_t heads, int64_t b, int64_t i, int64_t n,
                int64_t d) const {
    const int64_t S = rows(s);
    if (tnd()) {
      int64_t first = 0;
      for (int64_t x = 0; x < b; ++x) first += s[static_cast<size_t>(x)];
      return ((first + i) * heads + n) * D + d;
    }
    if (layout == "BSH" || layout == "BSND") return ((b * S + i) * heads + n) * D + d;
    if (layout == "SBH") return ((i * B() + b) * heads + n) * D + d;
    return ((b * heads + n) * S + i) * D + d;
  }
  bool visible(int64_t b, int64_t i, int64_t j) const {
    const int64_t s1 = S1[static_cast<size_t>(b)], s2 = S2[static_cast<size_t>(b)];
    if (sparseMode == 2 && j > i) return false;
    if (sparseMode == 3 && j > i + s2 - s1) return false;
    if (sparseMode == 0 && (j < i - preTokens || j > i + nextTokens)) return false;
    if (sparseMode < 2 && !mask.empty() && mask[static_cast<size_t>(i * rows(S2) + j)] != 0) return false;
    return true;
  }
};

// Logical tensors in double, indexed like the device tensors.
struct Tensors {
  std::vector<double> q, k, v, dy;
};

struct Forward {
  std::vector<double> out, mx, sm;  // out like q; mx/sm per (b, n, i) row-major
};

int64_t statRow(const Problem& p, int64_t b, int64_t n, int64_t i) {
  const int64_t S = p.rows(p.S1);
  if (p.tnd()) {
    int64_t first = 0;
    for (int64_t x = 0; x < b; ++x) first += p.S1[static_cast<size_t>(x)];
    return (first + i) * p.N + n;  // [T, N] (softmaxInLayout "same_as_input")
  }
  return (b * p.N + n) * S + i;
}

Forward forward(const Problem& p, const Tensors& t) {
  Forward f;
  f.out.assign(t.q.size(), 0.0);
  const size_t rowsTotal =
      p.tnd() ? static_cast<size_t>(p.rows(p.S1) * p.N) : static_cast<size_t>(p.B() * p.N * p.rows(p.S1));
  f.mx.assign(rowsTotal, 0.0);
  f.sm.assign(rowsTotal, 0.0);
  const int64_t g = p.N / p.Nkv;
  for (int64_t b = 0; b < p.B(); ++b)
    for (int64_t n = 0; n < p.N; ++n)
      for (int64_t i = 0; i < p.S1[static_cast<size_t>(b)]; ++i) {
        const int64_t s2 = p.S2[static_cast<size_t>(b)];
        std::vector<double> s(static_cast<size_t>(s2), -INFINITY);
        double m = -INFINITY;
        for (int64_t j = 0; j < s2; ++j) {
          if (!p.visible(b, i, j)) continue;
          double acc = 0;
          for (int64_t d = 0; d < p.D; ++d)
            acc += t.q[static_cast<size_t>(p.index(p.S1, p.N, b, i, n, d))] *
                   t.k[static_cast<size_t>(p.index(p.S2, p.Nkv, b, j, n / g, d))];
          s[static_cast<size_t>(j)] = acc * p.scale;
          m = std::max(m, acc * p.scale);
        }
        double sum = 0;
        for (double& x : s) sum += (x = std::isinf(m) ? 0.0 : std::exp(x - m));
        for (int64_t d = 0; d < p.D; ++d) {
          double o = 0;
          for (int64_t j = 0; j < s2; ++j)
            o += s[static_cast<size_t>(j)] / (sum > 0 ? sum : 1) *
                 t.v[static_cast<size_t>(p.index(p.S2, p.Nkv, b, j, n / g, d))];
          f.out[static_cast<size_t>(p.index(p.S1, p.N, b, i, n, d))] = o;
        }
        f.mx[static_cast<size_t>(statRow(p, b, n, i))] = std::isinf(m) ? 0.0 : m;
        f.sm[static_cast<size_t>(statRow(p, b, n, i))] = sum;
      }
  return f;
}

double loss(const Problem& p, const Tensors& t) {
  const Forward f = forward(p, t);
  double l = 0;
  for (size_t e = 0; e < f.out.size(); ++e) l += f.out[e] * t.dy[e];
  return l;
}

// The closed-form backward in double: dq, dk, dv.
void backward(const Problem& p, const Tensors& t, std::vector<double>* dq, std::vector<double>* dk,
              std::vector<double>* dv) {
  const Forward f = forward(p, t);
  dq->assign(t.q.size(), 0.0);
  dk->assign(t.k.size(), 0.0);
  dv->assign(t.v.size(), 0.0);
  const int64_t g = p.N / p.Nkv;
  for (int64_t b = 0; b < p.B(); ++b)
    for (int64_t n = 0; n < p.N; ++n)
      for (int64_t i = 0; i < p.S1[static_cast<size_t>(b)]; ++i) {
        const double m = f.mx[static_cast<size_t>(statRow(p, b, n, i))],
                     sum = f.sm[static_cast<size_t>(statRow(p, b, n, i))];
        auto Q = [&](int64_t d) { return static_cast<size_t>(p.index(p.S1, p.N, b, i, n, d)); };
        double corr = 0;
        for (int64_t d = 0; d < p.D; ++d) corr += t.dy[Q(d)] * f.out[Q(d)];
        for (int64_t j = 0; j < p.S2[static_cast<size_t>(b)]; ++j) {
          if (!p.visible(b, i, j) || sum == 0) continue;
          auto K = [&](int64_t d) { return static_cast<size_t>(p.index(p.S2, p.Nkv, b, j, n / g, d)); };
          double s = 0, dp = 0;
          for (int64_t d = 0; d < p.D; ++d) {
            s += t.q[Q(d)] * t.k[K(d)];
            dp += t.dy[Q(d)] * t.v[K(d)];
          }
          const double P = std::exp(s * p.scale - m) / sum, dS = P * (dp - corr);
          for (int64_t d = 0; d < p.D; ++d) {
            (*dv)[K(d)] += P * t.dy[Q(d)];
            (*dq)[Q(d)] += p.scale * dS * t.k[K(d)];
            (*dk)[K(d)] += p.scale * dS * t.q[Q(d)];
          }
        }
      }
}

struct Result {
  int status = -1;
  std::vector<double> dq, dk, dv;
};

// Random inputs rounded to `dt`; runs the grad entry point for the layout (V2 for padded,
// UnpaddingV4 for TND) on host memory. `t` receives the inputs as stored.
Result runGrad(const Problem& p, aclDataType dt, Tensors* t, unsigned seed) {
  std::mt19937 gen(seed);
  HostTensorBuf q(dt, p.shape(p.S1, p.N)), k(dt, p.shape(p.S2, p.Nkv)), v(dt, p.shape(p.S2, p.Nkv)),
      dy(dt, p.shape(p.S1, p.N)), o(dt, p.shape(p.S1, p.N)), dq(dt, p.shape(p.S1, p.N)),
      dk(dt, p.shape(p.S2, p.Nkv)), dv(dt, p.shape(p.S2, p.Nkv));
  for (HostTensorBuf* b : {&q, &k, &v, &dy}) b->fillRandom(gen, -1.0, 1.0);
  auto values = [](HostTensorBuf& b) {
    std::vector<double> x(static_cast<size_t>(b.numel()));
    for (int64_t e = 0; e < b.numel(); ++e) x[static_cast<size_t>(e)] = b.get(e);
    return x;
  };
  *t = Tensors{values(q), values(k), values(v), values(dy)};
  const Forward f = forward(p, *t);
  for (int64_t e = 0; e < o.numel(); ++e) o.set(e, f.out[static_cast<size_t>(e)]);
  const std::vector<int64_t> statShape = p.tnd() ? std::vector<int64_t>{p.rows(p.S1), p.N, 8}
                                                 : std::vector<int64_t>{p.B(), p.N, p.rows(p.S1), 8};
  HostTensorBuf mx(ACL_FLOAT, statShape), sm(ACL_FLOAT, statShape);
  for (int64_t e = 0; e < mx.numel(); ++e) {
    mx.set(e, f.mx[static_cast<size_t>(e / 8)]);
    sm.set(e, f.sm[static_cast<size_t>(e / 8)]);
  }
  HostTensorBuf mask(ACL_UINT8, {p.rows(p.S1), p.rows(p.S2)});
  for (int64_t e = 0; e < mask.numel(); ++e) mask.set(e, p.mask.empty() ? 0 : p.mask[static_cast<size_t>(e)]);
  aclTensor* maskT = p.mask.empty() && p.sparseMode < 2 ? nullptr : mask.get();
  std::vector<int64_t> endsQ, endsKv;
  for (size_t b = 0; b < p.S1.size(); ++b) {
    endsQ.push_back((endsQ.empty() ? 0 : endsQ.back()) + p.S1[b]);
    endsKv.push_back((endsKv.empty() ? 0 : endsKv.back()) + p.S2[b]);
  }
  aclIntArray* seqQ = aclCreateIntArray(endsQ.data(), endsQ.size());
  aclIntArray* seqKv = aclCreateIntArray(endsKv.data(), endsKv.size());
  std::string layout = p.layout;
  char statsLayout[] = "same_as_input";
  Result r;
  r.status = aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
    if (p.tnd()) {
      return aclnnFlashAttentionUnpaddingScoreGradV4GetWorkspaceSize(
          q.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, maskT, mx.get(), sm.get(), nullptr,
          o.get(), nullptr, seqQ, seqKv, p.scale, 1.0, p.preTokens, p.nextTokens, p.N, layout.data(), 0,
          p.sparseMode, dq.get(), dk.get(), dv.get(), nullptr, statsLayout, ws, ex);
    }
    return aclnnFlashAttentionScoreGradV2GetWorkspaceSize(
        q.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, maskT, mx.get(), sm.get(), nullptr,
        o.get(), nullptr, nullptr, nullptr, p.scale, 1.0, p.preTokens, p.nextTokens, p.N, layout.data(), 0,
        p.sparseMode, 1, dq.get(), dk.get(), dv.get(), nullptr, ws, ex);
  });
  aclDestroyIntArray(seqQ);
  aclDestroyIntArray(seqKv);
  if (r.status == 0) {
    r.dq = values(dq);
    r.dk = values(dk);
    r.dv = values(dv);
  }
  return r;
}

// |got - want| within rel * (largest |want|), element by element.
void expectClose(const std::vector<double>& got, const std::vector<double>& want, double rel,
                 const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 1e-6;
  for (double w : want) scale = std::max(scale, std::fabs(w));
  for (size_t e = 0; e < got.size(); ++e)
    ASSERT_NEAR(got[e], want[e], rel * scale) << what << "[" << e << "]";
}

void expectMatchesClosedForm(const Problem& p, aclDataType dt, double rel) {
  Tensors t;
  const Result r = runGrad(p, dt, &t, 7);
  ASSERT_EQ(r.status, 0) << aclGetRecentErrMsg();
  std::vector<double> dq, dk, dv;
  backward(p, t, &dq, &dk, &dv);
  expectClose(r.dq, dq, rel, "dq");
  expectClose(r.dk, dk, rel, "dk");
  expectClose(r.dv, dv, rel, "dv");
}

TEST(FlashAttentionGrad, Fp32MatchesFiniteDifferencesOfTheForward) {
  Problem p;
  p.layout = "BNSD";
  p.N = 2;
  p.D = 4;
  p.S1 = {5, 5};
  p.S2 = {6, 6};
  p.mask.assign(5 * 6, 0);
  p.mask[3] = p.mask[14] = 1;  // two masked pairs
  Tensors t;
  const Result r = runGrad(p, ACL_FLOAT, &t, 1);
  ASSERT_EQ(r.status, 0) << aclGetRecentErrMsg();
  const double h = 1e-5;
  auto fd = [&](std::vector<double> Tensors::*field, const std::vector<double>& got, const char* what) {
    for (size_t e = 0; e < got.size(); ++e) {
      Tensors plus = t, minus = t;
      (plus.*field)[e] += h;
      (minus.*field)[e] -= h;
      const double want = (loss(p, plus) - loss(p, minus)) / (2 * h);
      EXPECT_NEAR(got[e], want, 1e-4 * std::max(1.0, std::fabs(want))) << what << "[" << e << "]";
    }
  };
  fd(&Tensors::q, r.dq, "dq");
  fd(&Tensors::k, r.dk, "dk");
  fd(&Tensors::v, r.dv, "dv");
  double norm = 0;
  for (double x : r.dq) norm += std::fabs(x);
  EXPECT_GT(norm, 1e-3);  // the gradients are not trivially zero
}

TEST(FlashAttentionGrad, LayoutsAndGroupedHeadsMatchTheClosedForm) {
  for (const char* layout : {"BSH", "SBH", "BSND", "BNSD"}) {
    Problem p;
    p.layout = layout;
    p.N = 4;
    p.Nkv = 2;  // two query heads per key/value head: dk, dv summed over the group
    p.D = 16;
    p.S1 = {9, 9};
    p.S2 = {12, 12};
    SCOPED_TRACE(layout);
    expectMatchesClosedForm(p, ACL_FLOAT, 1e-5);
  }
}

TEST(FlashAttentionGrad, CausalAndBandModes) {
  Problem p;
  p.layout = "BSND";
  p.N = 2;
  p.D = 8;
  p.S1 = {10};
  p.S2 = {10};
  p.sparseMode = 2;  // causal from the top left
  expectMatchesClosedForm(p, ACL_FLOAT, 1e-5);
  p.S2 = {14};
  p.sparseMode = 3;  // causal from the bottom right
  expectMatchesClosedForm(p, ACL_FLOAT, 1e-5);
  p.sparseMode = 0;  // band of 2 before, 1 after
  p.preTokens = 2;
  p.nextTokens = 1;
  expectMatchesClosedForm(p, ACL_FLOAT, 1e-5);
}

TEST(FlashAttentionGrad, HalfAndBfloat16WithinTheirPrecision) {
  Problem p;
  p.layout = "BSH";
  p.N = 2;
  p.D = 32;
  p.S1 = {24};
  p.S2 = {40};
  p.mask.assign(24 * 40, 0);
  for (size_t e = 0; e < p.mask.size(); e += 7) p.mask[e] = 1;
  expectMatchesClosedForm(p, ACL_FLOAT16, 1e-2);
  expectMatchesClosedForm(p, ACL_BF16, 5e-2);
}

TEST(FlashAttentionGrad, PackedSequencesOfTnd) {
  Problem p;
  p.layout = "TND";
  p.N = 2;
  p.Nkv = 1;
  p.D = 8;
  p.S1 = {7};
  p.S2 = {3};
  expectMatchesClosedForm(p, ACL_FLOAT, 1e-5);
  p.S1 = {5, 7};
  p.S2 = {6, 3};
  expectMatchesClosedForm(p, ACL_FLOAT, 1e-5);
  p.sparseMode = 3;
  expectMatchesClosedForm(p, ACL_FLOAT, 1e-5);
}

// The backward takes what aclnnFlashAttentionScore writes: its output and statistics, fed to
// the grad, give the closed-form gradients (BSND, 4 query / 2 key-value heads, causal mode 3).
// The forward's output and statistics feed the backward. Mode 3 with S1 < S2, and mode 0 with
// S1 > S2 and unbounded preTokens (every key visible to every row: the forward once clipped
// preTokens to S2 and hid the early keys of the late rows).
static void forwardThenBackward(int64_t S1, int64_t S2, int64_t sparseMode) {
  const int64_t B = 2, N = 4, Nkv = 2, D = 8;
  const double scale = 0.35;
  std::mt19937 gen(3);
  HostTensorBuf q(ACL_FLOAT, {B, S1, N, D}), k(ACL_FLOAT, {B, S2, Nkv, D}), v(ACL_FLOAT, {B, S2, Nkv, D}),
      dy(ACL_FLOAT, {B, S1, N, D}), o(ACL_FLOAT, {B, S1, N, D}), mx(ACL_FLOAT, {B, N, S1, 8}),
      sm(ACL_FLOAT, {B, N, S1, 8}), mask(ACL_UINT8, {S1, S2}), dq(ACL_FLOAT, {B, S1, N, D}),
      dk(ACL_FLOAT, {B, S2, Nkv, D}), dv(ACL_FLOAT, {B, S2, Nkv, D});
  for (HostTensorBuf* b : {&q, &k, &v, &dy}) b->fillRandom(gen, -1.0, 1.0);
  for (int64_t e = 0; e < mask.numel(); ++e) mask.set(e, 0);
  char l1[] = "BSND", l2[] = "BSND";
  ASSERT_EQ(aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFlashAttentionScoreGetWorkspaceSize(
                  q.get(), k.get(), v.get(), nullptr, nullptr, nullptr, mask.get(), nullptr, scale, 1.0,
                  INT_MAX, INT_MAX, N, l1, 0, sparseMode, mx.get(), sm.get(), nullptr, o.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFlashAttentionScoreGradGetWorkspaceSize(
                  q.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, mask.get(), mx.get(),
                  sm.get(), nullptr, o.get(), nullptr, scale, 1.0, INT_MAX, INT_MAX, N, l2, 0, sparseMode,
                  dq.get(), dk.get(), dv.get(), nullptr, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  Problem p;
  p.layout = "BSND";
  p.N = N;
  p.Nkv = Nkv;
  p.D = D;
  p.S1 = {S1, S1};
  p.S2 = {S2, S2};
  p.scale = scale;
  p.sparseMode = sparseMode;
  auto values = [](HostTensorBuf& b) {
    std::vector<double> x(static_cast<size_t>(b.numel()));
    for (int64_t e = 0; e < b.numel(); ++e) x[static_cast<size_t>(e)] = b.get(e);
    return x;
  };
  const Tensors t{values(q), values(k), values(v), values(dy)};
  std::vector<double> wq, wk, wv;
  backward(p, t, &wq, &wk, &wv);
  expectClose(values(dq), wq, 1e-5, "dq");
  expectClose(values(dk), wk, 1e-5, "dk");
  expectClose(values(dv), wv, 1e-5, "dv");
}

// Views: query, dy and dq given as BNSD views of BSND storage (strides permuted) give what the
// dense BNSD tensors give.

TEST(FlashAttentionGrad, TakesTheForwardsStatistics) {
  forwardThenBackward(6, 9, 3);
  forwardThenBackward(9, 6, 0);
}

TEST(FlashAttentionGrad, NonContiguousViews) {
  const int64_t B = 1, N = 2, S = 5, D = 4;
  std::mt19937 gen(5);
  const std::vector<int64_t> shape{B, N, S, D}, permuted{S * N * D, D, N * D, 1};
  HostTensorBuf qv(ACL_FLOAT, shape, permuted, 0), dyv(ACL_FLOAT, shape, permuted, 0),
      dqv(ACL_FLOAT, shape, permuted, 0), q(ACL_FLOAT, shape), dy(ACL_FLOAT, shape), dq(ACL_FLOAT, shape),
      k(ACL_FLOAT, shape), v(ACL_FLOAT, shape), o(ACL_FLOAT, shape), mx(ACL_FLOAT, {B, N, S, 8}),
      sm(ACL_FLOAT, {B, N, S, 8}), dk(ACL_FLOAT, shape), dv(ACL_FLOAT, shape), dk2(ACL_FLOAT, shape),
      dv2(ACL_FLOAT, shape);
  for (HostTensorBuf* b : {&q, &dy, &k, &v, &o}) b->fillRandom(gen, -1.0, 1.0);
  for (int64_t e = 0; e < mx.numel(); ++e) mx.set(e, 0.5), sm.set(e, 2.0 + e % 3);
  for (int64_t e = 0; e < q.numel(); ++e) qv.set(e, q.get(e)), dyv.set(e, dy.get(e));
  char layout[] = "BNSD";
  auto grad = [&](HostTensorBuf& qq, HostTensorBuf& dd, HostTensorBuf& out, HostTensorBuf& dkk,
                  HostTensorBuf& dvv) {
    return aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnFlashAttentionScoreGradGetWorkspaceSize(
          qq.get(), k.get(), v.get(), dd.get(), nullptr, nullptr, nullptr, nullptr, mx.get(), sm.get(),
          nullptr, o.get(), nullptr, 0.5, 1.0, INT_MAX, INT_MAX, N, layout, 0, 0, out.get(), dkk.get(),
          dvv.get(), nullptr, ws, ex);
    });
  };
  ASSERT_EQ(grad(q, dy, dq, dk, dv), 0) << aclGetRecentErrMsg();
  ASSERT_EQ(grad(qv, dyv, dqv, dk2, dv2), 0) << aclGetRecentErrMsg();
  for (int64_t e = 0; e < q.numel(); ++e) {
    EXPECT_EQ(dqv.get(e), dq.get(e)) << e;
    EXPECT_EQ(dk2.get(e), dk.get(e)) << e;
    EXPECT_EQ(dv2.get(e), dv.get(e)) << e;
  }
}

// No queries: dk and dv are zero (no query attends); no keys: dq is zero.
TEST(FlashAttentionGrad, EmptySequences) {
  for (auto [S1, S2] : {std::pair<int64_t, int64_t>{0, 4}, {3, 0}}) {
    const int64_t B = 1, N = 1, D = 4;
    HostTensorBuf q(ACL_FLOAT, {B, N, S1, D}), dy(ACL_FLOAT, {B, N, S1, D}), o(ACL_FLOAT, {B, N, S1, D}),
        dq(ACL_FLOAT, {B, N, S1, D}), k(ACL_FLOAT, {B, N, S2, D}), v(ACL_FLOAT, {B, N, S2, D}),
        dk(ACL_FLOAT, {B, N, S2, D}), dv(ACL_FLOAT, {B, N, S2, D}), mx(ACL_FLOAT, {B, N, S1, 8}),
        sm(ACL_FLOAT, {B, N, S1, 8});
    std::mt19937 gen(9);
    for (HostTensorBuf* b : {&q, &dy, &o, &k, &v, &mx, &sm}) b->fillRandom(gen, 0.5, 1.0);
    char layout[] = "BNSD";
    ASSERT_EQ(aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFlashAttentionScoreGradGetWorkspaceSize(
                    q.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, nullptr, mx.get(),
                    sm.get(), nullptr, o.get(), nullptr, 0.5, 1.0, INT_MAX, INT_MAX, N, layout, 0, 0,
                    dq.get(), dk.get(), dv.get(), nullptr, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (HostTensorBuf* b : {&dq, &dk, &dv})
      for (int64_t e = 0; e < b->numel(); ++e) EXPECT_EQ(b->get(e), 0.0) << S1 << " " << S2;
  }
}

// The public example's values: q = k = v = dy = attentionIn = 1 and statistics 3 make
// P = exp(sqrt(128) - 3) / 3 everywhere, dP - rowsum(dy * attentionIn) = 128 - 128 = 0, so dq = dk = 0
// and dv = 256 P.
TEST(FlashAttentionGrad, PublicExampleValues) {
  const int64_t S = 256, D = 128;
  HostTensorBuf q(ACL_FLOAT, {S, 1, D}), k(ACL_FLOAT, {S, 1, D}), v(ACL_FLOAT, {S, 1, D}),
      dy(ACL_FLOAT, {S, 1, D}), o(ACL_FLOAT, {S, 1, D}), mx(ACL_FLOAT, {1, 1, S, 8}),
      sm(ACL_FLOAT, {1, 1, S, 8}), mask(ACL_UINT8, {S, S}), dq(ACL_FLOAT, {S, 1, D}),
      dk(ACL_FLOAT, {S, 1, D}), dv(ACL_FLOAT, {S, 1, D});
  for (HostTensorBuf* b : {&q, &k, &v, &dy, &o})
    for (int64_t e = 0; e < b->numel(); ++e) b->set(e, 1.0);
  for (int64_t e = 0; e < mx.numel(); ++e) mx.set(e, 3.0), sm.set(e, 3.0);
  for (int64_t e = 0; e < mask.numel(); ++e) mask.set(e, 0);
  char layout[] = "SBH";
  ASSERT_EQ(aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFlashAttentionScoreGradGetWorkspaceSize(
                  q.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, mask.get(), mx.get(),
                  sm.get(), nullptr, o.get(), nullptr, 1 / std::sqrt(128.0), 1.0, INT_MAX, INT_MAX, 1, layout,
                  0, 0, dq.get(), dk.get(), dv.get(), nullptr, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  const double P = std::exp(std::sqrt(128.0) - 3) / 3;
  for (int64_t e = 0; e < dq.numel(); e += 97) {
    EXPECT_NEAR(dq.get(e), 0.0, 1e-3);
    EXPECT_NEAR(dk.get(e), 0.0, 1e-3);
    EXPECT_NEAR(dv.get(e), S * P, 1e-5 * S * P);
  }
}

TEST(FlashAttentionGrad, RefusesBadInput) {
  const int64_t B = 1, N = 2, S = 4, D = 8;
  HostTensorBuf q(ACL_FLOAT16, {B, N, S, D}), k(ACL_FLOAT16, {B, N, S, D}), v(ACL_FLOAT16, {B, N, S, D}),
      dy(ACL_FLOAT16, {B, N, S, D}), o(ACL_FLOAT16, {B, N, S, D}), mx(ACL_FLOAT, {B, N, S, 8}),
      sm(ACL_FLOAT, {B, N, S, 8}), dq(ACL_FLOAT16, {B, N, S, D}), dk(ACL_FLOAT16, {B, N, S, D}),
      dv(ACL_FLOAT16, {B, N, S, D}), q32(ACL_FLOAT, {B, N, S, D}), i32(ACL_INT32, {B, N, S, D}),
      badStats(ACL_FLOAT, {B, N, S, 4}), drop(ACL_UINT8, {B, N, S, S});
  auto call = [&](aclTensor* query, aclTensor* key, aclTensor* maxT, aclTensor* dropMask, double keepProb,
                  const char* layout, int64_t heads, int64_t sparse, aclTensor* dqT) {
    std::string l = layout == nullptr ? "" : layout;
    return aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnFlashAttentionScoreGradGetWorkspaceSize(
          query, key, v.get(), dy.get(), nullptr, dropMask, nullptr, nullptr, maxT, sm.get(), nullptr,
          o.get(), nullptr, 0.5, keepProb, INT_MAX, INT_MAX, heads, layout == nullptr ? nullptr : l.data(), 0,
          sparse, dqT, dk.get(), dv.get(), nullptr, ws, ex);
    });
  };
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 1.0, "BNSD", N, 0, dq.get()), 0);
  EXPECT_EQ(call(nullptr, k.get(), mx.get(), nullptr, 1.0, "BNSD", N, 0, dq.get()), 161001);
  EXPECT_EQ(call(q.get(), k.get(), nullptr, nullptr, 1.0, "BNSD", N, 0, dq.get()), 161001);
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 1.0, nullptr, N, 0, dq.get()), 161001);
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 1.0, "BNSD", N, 0, nullptr), 161001);
  EXPECT_EQ(call(q32.get(), k.get(), mx.get(), nullptr, 1.0, "BNSD", N, 0, dq.get()), 161002);  // mixed types
  EXPECT_EQ(call(i32.get(), k.get(), mx.get(), nullptr, 1.0, "BNSD", N, 0, dq.get()), 161002);  // int32
  EXPECT_EQ(call(q.get(), k.get(), badStats.get(), nullptr, 1.0, "BNSD", N, 0, dq.get()), 161002);
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 0.9, "BNSD", N, 0, dq.get()), 161002);  // dropout
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), drop.get(), 1.0, "BNSD", N, 0, dq.get()), 161002);
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 1.0, "NSBD", N, 0, dq.get()), 161002);  // layout
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 1.0, "BNSD", N, 5, dq.get()), 161002);  // prefix mode
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 1.0, "BNSD", N, 1, dq.get()),
            161002);  // mode 1, no mask
  EXPECT_EQ(call(q.get(), k.get(), mx.get(), nullptr, 1.0, "BSH", 3, 0, dq.get()), 161002);  // H % headNum
  // TND without the sequence lengths; V3 (rope split) is not simulated.
  char tnd[] = "TND";
  EXPECT_EQ(aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFlashAttentionUnpaddingScoreGradGetWorkspaceSize(
                  q.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, nullptr, mx.get(), sm.get(),
                  nullptr, o.get(), nullptr, nullptr, nullptr, 0.5, 1.0, INT_MAX, INT_MAX, N, tnd, 0, 0,
                  dq.get(), dk.get(), dv.get(), nullptr, ws, ex);
            }),
            161001);
  EXPECT_EQ(aclnn_test::run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFlashAttentionUnpaddingScoreGradV3GetWorkspaceSize(
                  q.get(), q.get(), k.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, nullptr,
                  mx.get(), sm.get(), nullptr, o.get(), nullptr, nullptr, nullptr, nullptr, nullptr, 0.5, 1.0,
                  INT_MAX, INT_MAX, N, tnd, 0, 0, 0, dq.get(), dq.get(), dk.get(), dk.get(), dv.get(),
                  nullptr, ws, ex);
            }),
            161002);
}

}  // namespace

namespace {

// Simulated microseconds of one fp16 BNSD FlashAttentionScoreGrad, 24 heads of S queries and
// keys, D = 128, no mask.
double gradUs(aclrtStream stream, int64_t S) {
  const int64_t B = 1, N = 24, D = 128;
  DeviceBuf q(ACL_FLOAT16, {B, N, S, D}), k(ACL_FLOAT16, {B, N, S, D}), v(ACL_FLOAT16, {B, N, S, D}),
      dy(ACL_FLOAT16, {B, N, S, D}), o(ACL_FLOAT16, {B, N, S, D}), mx(ACL_FLOAT, {B, N, S, 8}),
      sm(ACL_FLOAT, {B, N, S, 8}), dq(ACL_FLOAT16, {B, N, S, D}), dk(ACL_FLOAT16, {B, N, S, D}),
      dv(ACL_FLOAT16, {B, N, S, D});
  char layout[] = "BNSD";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnFlashAttentionScoreGradGetWorkspaceSize(
                q.t, k.t, v.t, dy.t, nullptr, nullptr, nullptr, nullptr, mx.t, sm.t, nullptr, o.t, nullptr,
                0.088, 1.0, INT_MAX, INT_MAX, N, layout, 0, 0, dq.t, dk.t, dv.t, nullptr, &ws, &ex),
            0)
      << aclGetRecentErrMsg();
  const float ms =
      aclnn_test::simulatedMs(stream, [&] { return aclnnFlashAttentionScoreGrad(nullptr, ws, ex, stream); });
  return ms * 1e3;
}

// Each of the 24 cube cores takes S / 128 tiles of 128 query rows (configs/910b.json: 4096 fp16
// MACs/cycle at 1.8 GHz, 32 B/cycle through a core's MTE). A tile's five matmuls are
// 128 x S x (3 x 128 + 2 x 128) MACs, its own bytes (q, dy, attentionIn rows, statistics in; dq
// rows out) 139264 B, and the first block of each head also moves that head's k, v in and dk, dv
// out (4 x S x 256 B). From S = 512 to 1024 the time grows by at least the cube's extra work and
// at most that plus the extra bytes one after another, plus one heaviest tile (tiles of unequal
// cost handed to whichever core is free finish within one tile of the average; the launch's
// fixed costs cancel).
TEST(FlashAttentionGradTiming, CubeWorkAndBytesAtTheCoresRates) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  auto cubeCycles = [](double S) { return S / 128 * 128 * S * 640 / 4096; };
  auto serialCycles = [&](double S) { return cubeCycles(S) + S / 128 * 139264 / 32 + 4 * S * 256 / 32; };
  const double t512 = gradUs(stream, 512), t1024 = gradUs(stream, 1024);
  const double cubeUs = (cubeCycles(1024) - cubeCycles(512)) / 1.8e3;
  const double serialUs = (serialCycles(1024) - serialCycles(512)) / 1.8e3;
  std::printf(
      "FlashAttentionScoreGrad: %.2f us (S = 512), %.2f us (S = 1024); growth %.2f us, cube %.2f us, "
      "cube and bytes %.2f us\n",
      t512, t1024, t1024 - t512, cubeUs, serialUs);
  EXPECT_GT(t1024 - t512, cubeUs);
  const double heaviestTileUs = (128.0 * 1024 * 640 / 4096 + 139264 / 32 + 4 * 1024 * 256 / 32) / 1.8e3;
  EXPECT_LT(t1024 - t512, serialUs + heaviestTileUs);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace
