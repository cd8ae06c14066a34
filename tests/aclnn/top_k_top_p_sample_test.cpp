// aclnnTopKTopPSample (runtime/aclnn/ops/top_k_top_p_sample.cpp): the doc's top-k, top-p and
// exponential sampling against a reference written here by ranks (an element's rank = how many
// elements come before it: larger, or equal with a smaller index) instead of sorting; skipped
// stages, fp16/bf16, error codes and bytes charged.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_top_k_top_p_sample.h"
#include "aclnnop/aclnn_top_k_top_p_sample_v2.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

struct RowResult {
  int64_t chosen;
  std::vector<bool> kept;
};

// The definition on one row: kept after top-k (k in [1, min(V, 1024)]) and top-p (0 < p < 1, as the V1
// kernel); chosen = argmax over kept of softmax / (q + eps), the first in rank order on ties.
RowResult reference(const std::vector<double>& x, int64_t k, double p, const std::vector<double>* q,
                    double eps) {
  const int64_t v = static_cast<int64_t>(x.size());
  std::vector<int64_t> rank(v, 0);
  for (int64_t i = 0; i < v; ++i)
    for (int64_t j = 0; j < v; ++j)
      if (x[j] > x[i] || (x[j] == x[i] && j < i)) ++rank[i];
  std::vector<bool> kept(v, true);
  if (k >= 1 && k <= std::min<int64_t>(v, 1024))
    for (int64_t i = 0; i < v; ++i) kept[i] = rank[i] < k;
  double mx = -INFINITY;
  for (int64_t i = 0; i < v; ++i) mx = std::max(mx, x[i]);
  auto softmaxOfKept = [&]() {
    std::vector<double> pr(v, 0);
    double s = 0;
    for (int64_t i = 0; i < v; ++i)
      if (kept[i]) s += (pr[i] = std::exp(x[i] - mx));
    for (double& e : pr) e /= s;
    return pr;
  };
  if (p > 0 && p < 1) {  // the V1 kernel filters only for 0 < p < 1
    const std::vector<double> pr = softmaxOfKept();
    std::vector<bool> next = kept;
    for (int64_t i = 0; i < v; ++i) {
      if (!kept[i]) continue;
      double before = 0;  // mass of the kept elements ranked before i
      for (int64_t j = 0; j < v; ++j)
        if (kept[j] && rank[j] < rank[i]) before += pr[j];
      next[i] = !(before > p * (1 + 1e-12));
    }
    kept = next;
  }
  const std::vector<double> pr = softmaxOfKept();
  // q is aligned with the kept probabilities compacted in rank order when a filter sorted the
  // row, else with the row itself.
  const bool sorted = (k >= 1 && k <= std::min<int64_t>(v, 1024)) || (p > 0 && p < 1);
  int64_t best = -1, position = 0;
  double bestScore = -INFINITY;
  for (int64_t r = 0; r < v; ++r) {  // in rank order
    for (int64_t i = 0; i < v; ++i) {
      if (rank[i] != r || !kept[i]) continue;
      const double qv = q ? (*q)[sorted ? position : i] : 0;
      const double score = q ? pr[i] / (std::fabs(qv) + eps) : pr[i];
      ++position;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
  }
  return {best, kept};
}

}  // namespace

// 6 rows of 40 logits per type; rows mix top-k only, top-p only, both, neither (also by
// topP 0, which V1 skips); with and without q. Logits are integers / 4 so that fp16 and bf16 hold them
// exactly and ties occur.
TEST(TopKTopPSample, MatchesRankDefinition) {
  std::mt19937 g(17);
  const int64_t rows = 6, v = 40;
  const int64_t ks[rows] = {5, 0, 12, 2000, 1, 0};
  const double ps[rows] = {1.0, 0.5, 0.75, 1.5, 0.25, 0.0};
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (bool withQ : {true, false}) {
      HostTensorBuf logits(dt, {rows, v}), topK(ACL_INT32, {rows}), topP(dt, {rows}), q(ACL_FLOAT, {rows, v}),
          idx(ACL_INT64, {rows}), sel(ACL_FLOAT, {rows, v});
      for (int64_t i = 0; i < rows * v; ++i) {
        logits.set(i, std::uniform_int_distribution<int>(-12, 12)(g) / 4.0);
        q.set(i, std::uniform_real_distribution<double>(0.05, 3.0)(g));  // exponential-like draws
      }
      for (int64_t b = 0; b < rows; ++b) {
        topK.set(b, static_cast<double>(ks[b]));
        topP.set(b, ps[b]);
      }
      const double eps = 1e-8;
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnTopKTopPSampleGetWorkspaceSize(logits.get(), topK.get(), topP.get(),
                                                             withQ ? q.get() : nullptr, eps, true, 32,
                                                             idx.get(), sel.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t b = 0; b < rows; ++b) {
        std::vector<double> x(v), qr(v);
        for (int64_t i = 0; i < v; ++i) {
          x[i] = logits.get(b * v + i);
          qr[i] = q.get(b * v + i);
        }
        const RowResult want = reference(x, ks[b], topP.get(b), withQ ? &qr : nullptr, eps);
        EXPECT_EQ(idx.get(b), want.chosen) << "row " << b << " q " << withQ;
        for (int64_t i = 0; i < v; ++i) {
          const double got = sel.get(b * v + i);
          if (want.kept[i])
            EXPECT_EQ(got, x[i]) << b << "," << i;
          else
            EXPECT_TRUE(std::isinf(got) && got < 0) << b << "," << i;
        }
      }
    }
  }
}

// Same inputs, same result: q is the only randomness and the operator draws none.
TEST(TopKTopPSample, RepeatableAndErrors) {
  HostTensorBuf logits(ACL_BF16, {2, 8}), topK(ACL_INT32, {2}), topP(ACL_BF16, {2}), q(ACL_FLOAT, {2, 8}),
      idx(ACL_INT64, {2}), sel(ACL_FLOAT, {2, 8}), topP16(ACL_FLOAT16, {2}), idx32(ACL_INT32, {2}),
      q2(ACL_FLOAT, {2, 7}), logits32(ACL_FLOAT, {2, 8});
  std::mt19937 g(3);
  logits.fillRandom(g, -3, 3);
  q.fillRandom(g, 0.1, 2);
  for (int b = 0; b < 2; ++b) {
    topK.set(b, 4);
    topP.set(b, 0.9);
  }
  int64_t first[2] = {-1, -1};
  for (int rep = 0; rep < 2; ++rep) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnTopKTopPSampleGetWorkspaceSize(logits.get(), topK.get(), topP.get(), q.get(),
                                                           1e-8, false, 8, idx.get(), sel.get(), ws, ex);
              }),
              0);
    for (int b = 0; b < 2; ++b) {
      if (rep == 0) first[b] = static_cast<int64_t>(idx.get(b));
      EXPECT_EQ(idx.get(b), first[b]);
    }
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto phase1 = [&](const aclTensor* l, const aclTensor* k, const aclTensor* p, const aclTensor* qq,
                    const aclTensor* i, int64_t guess) {
    return aclnnTopKTopPSampleGetWorkspaceSize(l, k, p, qq, 1e-8, false, guess, i, sel.get(), &ws, &ex);
  };
  EXPECT_EQ(phase1(nullptr, topK.get(), topP.get(), q.get(), idx.get(), 8), kParamNull);
  EXPECT_EQ(phase1(logits.get(), topK.get(), nullptr, q.get(), idx.get(), 8), kParamNull);
  EXPECT_EQ(phase1(logits32.get(), topK.get(), topP.get(), q.get(), idx.get(), 8),
            kParamInvalid);  // fp32 logits
  EXPECT_EQ(phase1(logits.get(), topK.get(), topP16.get(), q.get(), idx.get(), 8),
            kParamInvalid);  // topP type
  EXPECT_EQ(phase1(logits.get(), topK.get(), topP.get(), q2.get(), idx.get(), 8), kParamInvalid);  // q shape
  EXPECT_EQ(phase1(logits.get(), topK.get(), topP.get(), q.get(), idx32.get(), 8),
            kParamInvalid);                                                                       // idx type
  EXPECT_EQ(phase1(logits.get(), topK.get(), topP.get(), q.get(), idx.get(), 0), kParamInvalid);  // topKGuess
  // Bytes: logits 32 + topK 8 + topP 4 + q 64 read; logitsSelectIdx 16 written (no logits out).
  ASSERT_EQ(phase1(logits.get(), topK.get(), topP.get(), q.get(), idx.get(), 8), 0);
  const Charged ch = chargedBytes(ex);
  EXPECT_EQ(ch.read, 32u + 8u + 4u + 64u);
  EXPECT_EQ(ch.written, 16u);
}

// V2 intermediate results (q null): row 0 top-k 3 then top-p 0.5 on fp32 logits with a tie; row
// 1 min-p 0.3 alone on log-probabilities 8/15, 1/15, 4/15, 2/15. By hand: logitsIdx lists the
// candidates by descending logit; logitsSortMasked their probabilities, -inf where top-k/top-p
// dropped them, 0 where min-p did.
TEST(TopKTopPSample, V2SampleResultWithMinP) {
  HostTensorBuf logits(ACL_FLOAT, {2, 5}), topK(ACL_INT32, {2}), topP(ACL_FLOAT, {2}), minPs(ACL_FLOAT, {2}),
      idx(ACL_INT64, {2, 5}), sorted(ACL_FLOAT, {2, 5});
  const double row0[5] = {1, 3, 2, 0, 3};
  const double row1[5] = {std::log(8.0), std::log(1.0), std::log(4.0), std::log(2.0), -50};
  for (int i = 0; i < 5; ++i) {
    logits.set(i, row0[i]);
    logits.set(5 + i, row1[i]);
  }
  topK.set(0, 3);
  topK.set(1, 0);  // skipped
  topP.set(0, 0.5);
  topP.set(1, 1);   // skipped
  minPs.set(0, 0);  // skipped
  minPs.set(1, 0.3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTopKTopPSampleV2GetWorkspaceSize(logits.get(), topK.get(), topP.get(), nullptr,
                                                           minPs.get(), 1e-8, false, 8, 2, true, true,
                                                           nullptr, nullptr, idx.get(), sorted.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  const double p0 = 1 / (2 + std::exp(-1.0));
  const int64_t wantIdx[2][5] = {{1, 4, 2, 0, 3}, {0, 2, 3, 1, 4}};
  const double wantVal[2][5] = {{p0, p0, -INFINITY, -INFINITY, -INFINITY}, {8.0 / 15, 4.0 / 15, 0, 0, 0}};
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(idx.get(b * 5 + i), wantIdx[b][i]) << b << "," << i;
      if (std::isinf(wantVal[b][i]))
        EXPECT_TRUE(std::isinf(sorted.get(b * 5 + i)) && sorted.get(b * 5 + i) < 0) << b << "," << i;
      else
        EXPECT_NEAR(sorted.get(b * 5 + i), wantVal[b][i], 1e-6) << b << "," << i;
    }
}

// V2 Q-sample on probabilities (inputIsLogits false): q is aligned with the kept probabilities
// in candidate order and taken as |q|, so the sorted row (top-k 2) and the unsorted one (no
// filter) pick differently from the same q; logitsTopKPSelect keeps 0 (defLogit) where dropped.
TEST(TopKTopPSample, V2QSampleAlignment) {
  HostTensorBuf probs(ACL_FLOAT, {2, 3}), topK(ACL_INT32, {2}), topP(ACL_FLOAT, {2}), q(ACL_FLOAT, {2, 3}),
      idx(ACL_INT64, {2}), sel(ACL_FLOAT, {2, 3});
  const double pr[3] = {0.1, 0.5, 0.4}, qs[3] = {-0.1, 5, 1};  // the kernels divide by |q| + eps
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i) {
      probs.set(b * 3 + i, pr[i]);
      q.set(b * 3 + i, qs[i]);
    }
  topK.set(0, 2);  // sorted: positions hold indices 1, 2 -> scores 0.5 / 0.1, 0.4 / 5 -> index 1
  topK.set(1, 0);  // unsorted: 0.1 / 0.1, 0.5 / 5, 0.4 / 1 -> index 0
  topP.set(0, 1);
  topP.set(1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTopKTopPSampleV2GetWorkspaceSize(probs.get(), topK.get(), topP.get(), q.get(),
                                                           nullptr, 0, true, 8, 1024, false, false, idx.get(),
                                                           sel.get(), nullptr, nullptr, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  EXPECT_EQ(idx.get(0), 1);
  EXPECT_EQ(idx.get(1), 0);
  const double wantSel[2][3] = {{0, 0.5, 0.4}, {0.1, 0.5, 0.4}};
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(sel.get(b * 3 + i), wantSel[b][i], 1e-7) << b << "," << i;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnTopKTopPSampleV2GetWorkspaceSize(probs.get(), topK.get(), topP.get(), q.get(), nullptr, 0,
                                                  false, 8, 0, true, false, idx.get(), nullptr, nullptr,
                                                  nullptr, &ws, &ex),
            kParamInvalid);  // ksMax 0
  EXPECT_EQ(
      aclnnTopKTopPSampleV2GetWorkspaceSize(probs.get(), topK.get(), topP.get(), q.get(), nullptr, 0, false,
                                            8, 8, true, true, idx.get(), nullptr, nullptr, nullptr, &ws, &ex),
      kParamNull);  // sample results need logitsIdx and logitsSortMasked
}
