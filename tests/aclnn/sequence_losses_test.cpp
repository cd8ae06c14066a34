// CtcLoss (runtime/aclnn/ops/ctc_loss.cpp) against the sum over every alignment, enumerated in
// the test, of the path probabilities that collapse to the target; padded and concatenated
// targets, zeroInfinity, logAlpha's layout. ChamferDistanceBackward (chamfer_distance_grad.cpp)
// against central differences of the weighted distances to the given nearest neighbours.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_chamfer_distance_backward.h"
#include "aclnnop/aclnn_ctc_loss.h"

using namespace aclnn_test;

namespace {

constexpr int kParamInvalid = 161002;

template <typename F>
int runOp(const F& f) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) { return f(ws, ex); });
}

// -log of the probability that a path over `steps` steps collapses (repeats merged, blanks
// dropped) to `target`, by enumerating all c^steps paths.
double ctcByEnumeration(HostTensorBuf& lp, int64_t n, int64_t b, int64_t c, int64_t steps,
                        std::vector<int64_t> target, int64_t blank) {
  double total = 0;
  std::vector<int64_t> path(static_cast<size_t>(steps), 0);
  for (int64_t code = 0; code < static_cast<int64_t>(std::pow(c, steps)); ++code) {
    int64_t k = code;
    double logp = 0;
    for (int64_t t = 0; t < steps; ++t) {
      path[static_cast<size_t>(t)] = k % c;
      k /= c;
      logp += lp.get((t * n + b) * c + path[static_cast<size_t>(t)]);
    }
    std::vector<int64_t> collapsed;
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t s = path[static_cast<size_t>(t)];
      if (s != blank && (t == 0 || s != path[static_cast<size_t>(t - 1)])) collapsed.push_back(s);
    }
    if (collapsed == target) total += std::exp(logp);
  }
  return -std::log(total);
}

TEST(SequenceLosses, CtcLossMatchesEnumeratedAlignments) {
  std::mt19937 gen(5);
  const int64_t t = 5, n = 3, c = 3;
  HostTensorBuf lp(ACL_FLOAT, {t, n, c});
  for (int64_t i = 0; i < t * n; ++i) {  // log-softmax rows of random logits
    double z[3], s = 0;
    for (double& e : z) s += std::exp(e = std::uniform_real_distribution<double>(-2, 2)(gen));
    for (int64_t j = 0; j < c; ++j) lp.set(i * c + j, z[j] - std::log(s));
  }
  // Batch 0: "1 2" over 5 steps; 1: "2 2" (needs a blank between) over 4; 2: "1 1 1" over 3 (impossible).
  const std::vector<std::vector<int64_t>> targets = {{1, 2}, {2, 2}, {1, 1, 1}};
  HostTensorBuf tg(ACL_INT64, {n, 3}), flat(ACL_INT32, {7}), nll(ACL_FLOAT, {n}), alpha(ACL_FLOAT, {n, t, 8});
  int64_t at = 0;
  for (int64_t b = 0; b < n; ++b) {
    for (size_t k = 0; k < targets[static_cast<size_t>(b)].size(); ++k) {
      tg.set(b * 3 + static_cast<int64_t>(k), static_cast<double>(targets[static_cast<size_t>(b)][k]));
      flat.set(at++, static_cast<double>(targets[static_cast<size_t>(b)][k]));
    }
  }
  const std::vector<int64_t> inLens = {5, 4, 3}, tgLens = {2, 2, 3};
  aclIntArray* il = aclCreateIntArray(inLens.data(), 3);
  aclIntArray* tl = aclCreateIntArray(tgLens.data(), 3);
  for (const aclTensor* targetsTensor :
       {static_cast<const aclTensor*>(tg.get()), static_cast<const aclTensor*>(flat.get())}) {
    ASSERT_EQ(runOp([&](auto ws, auto ex) {
                return aclnnCtcLossGetWorkspaceSize(lp.get(), targetsTensor, il, tl, 0, false, nll.get(),
                                                    alpha.get(), ws, ex);
              }),
              0);
    for (int64_t b = 0; b < 2; ++b) {
      const double want =
          ctcByEnumeration(lp, n, b, c, inLens[static_cast<size_t>(b)], targets[static_cast<size_t>(b)], 0);
      EXPECT_NEAR(nll.get(b), want, 1e-5 * std::max(1.0, want)) << "batch " << b;
    }
    EXPECT_TRUE(std::isinf(nll.get(2)));
    // alpha[0][0] = lp[0][blank], alpha[0][1] = lp[0][y1], the rest of step 0 unreachable.
    EXPECT_FLOAT_EQ(alpha.get(0), lp.get(0));
    EXPECT_FLOAT_EQ(alpha.get(1), lp.get(1));
    EXPECT_TRUE(std::isinf(alpha.get(2)));
  }
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnCtcLossGetWorkspaceSize(lp.get(), tg.get(), il, tl, 0, true, nll.get(), alpha.get(),
                                                  ws, ex);
            }),
            0);
  EXPECT_EQ(nll.get(2), 0);  // zeroInfinity
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  HostTensorBuf alphaBad(ACL_FLOAT, {n, t, 7});
  EXPECT_EQ(
      aclnnCtcLossGetWorkspaceSize(lp.get(), tg.get(), il, tl, 0, false, nll.get(), alphaBad.get(), &ws, &ex),
      kParamInvalid);  // the width is (2 max(L) + 8) / 8 * 8 = 8
  EXPECT_EQ(
      aclnnCtcLossGetWorkspaceSize(lp.get(), tg.get(), il, tl, 3, false, nll.get(), alpha.get(), &ws, &ex),
      kParamInvalid);  // blank outside the classes
  aclDestroyIntArray(il);
  aclDestroyIntArray(tl);
}

TEST(SequenceLosses, ChamferDistanceBackwardMatchesCentralDifferences) {
  std::mt19937 gen(6);
  const int64_t b = 2, n = 3, m = 4;
  HostTensorBuf p1(ACL_FLOAT, {b, n, 2}), p2(ACL_FLOAT, {b, m, 2}), i1(ACL_INT32, {b, n}),
      i2(ACL_INT32, {b, m}), g1(ACL_FLOAT, {b, n}), g2(ACL_FLOAT, {b, m}), d1(ACL_FLOAT, {b, n, 2}),
      d2(ACL_FLOAT, {b, m, 2});
  p1.fillRandom(gen, -1, 1);
  p2.fillRandom(gen, -1, 1);
  g1.fillRandom(gen, 0, 2);
  g2.fillRandom(gen, 0, 2);
  for (int64_t i = 0; i < b * n; ++i) i1.set(i, static_cast<double>((i * 3) % m));
  for (int64_t i = 0; i < b * m; ++i) i2.set(i, static_cast<double>((i * 2 + 1) % n));
  ASSERT_EQ(runOp([&](auto ws, auto ex) {
              return aclnnChamferDistanceBackwardGetWorkspaceSize(
                  p1.get(), p2.get(), i1.get(), i2.get(), g1.get(), g2.get(), d1.get(), d2.get(), ws, ex);
            }),
            0);
  // The weighted distances with the neighbours fixed.
  auto loss = [&]() {
    double s = 0;
    for (int64_t bi = 0; bi < b; ++bi) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t j = static_cast<int64_t>(i1.get(bi * n + i));
        for (int k = 0; k < 2; ++k)
          s += g1.get(bi * n + i) * std::pow(p1.get((bi * n + i) * 2 + k) - p2.get((bi * m + j) * 2 + k), 2);
      }
      for (int64_t i = 0; i < m; ++i) {
        const int64_t j = static_cast<int64_t>(i2.get(bi * m + i));
        for (int k = 0; k < 2; ++k)
          s += g2.get(bi * m + i) * std::pow(p2.get((bi * m + i) * 2 + k) - p1.get((bi * n + j) * 2 + k), 2);
      }
    }
    return s;
  };
  const double h = 1e-3;
  for (auto [pts, grad] : {std::pair{&p1, &d1}, {&p2, &d2}}) {
    for (int64_t i = 0; i < pts->numel(); ++i) {
      const double v = pts->get(i);
      pts->set(i, v + h);
      const double up = loss(), vUp = pts->get(i);  // the stored (rounded) coordinates
      pts->set(i, v - h);
      const double down = loss(), vDown = pts->get(i);
      pts->set(i, v);
      EXPECT_NEAR(grad->get(i), (up - down) / (vUp - vDown), 1e-4) << i;  // exact for a quadratic
    }
  }
}

}  // namespace
