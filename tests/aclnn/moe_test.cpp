// The MoE routing operators on host memory against references written here: gating top-k
// softmax (V1 and V2, finished rows), init routing (V1, V2 dropless and drop/pad), expert token
// ends, finalize routing (V1 and V2 layouts), token permute / unpermute and their gradients;
// argument errors and the bytes the cost model charges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_moe_compute_expert_tokens.h"
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "aclnnop/aclnn_moe_finalize_routing_v2.h"
#include "aclnnop/aclnn_moe_finalize_routing_v2_grad.h"
#include "aclnnop/aclnn_moe_gating_top_k.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax_v2.h"
#include "aclnnop/aclnn_moe_init_routing.h"
#include "aclnnop/aclnn_moe_init_routing_quant.h"
#include "aclnnop/aclnn_moe_init_routing_quant_v2.h"
#include "aclnnop/aclnn_moe_init_routing_v2.h"
#include "aclnnop/aclnn_moe_init_routing_v2_grad.h"
#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_permute_grad.h"
#include "aclnnop/aclnn_moe_token_permute_with_ep.h"
#include "aclnnop/aclnn_moe_token_permute_with_ep_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "aclnnop/aclnn_moe_token_unpermute_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_ep.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_ep_grad.h"

using namespace aclnn_test;

namespace {

// Expert choices without repeats in a row: a random permutation's first k per row.
void fillChoices(HostTensorBuf& idx, int64_t experts, std::mt19937& g) {
  const int64_t rows = idx.shape()[0], k = idx.shape()[1];
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int> p(static_cast<size_t>(experts));
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), g);
    for (int64_t j = 0; j < k; ++j) idx.set(r * k + j, p[j]);
  }
}

}  // namespace

TEST(MoeGating, TopKOfTheSoftmaxWithRowIndicesAndFinishedRows) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    std::mt19937 g(3);
    const int64_t R = 5, E = 8, k = 3;
    HostTensorBuf x(dt, {R, E}), y(dt, {R, k}), ei(ACL_INT32, {R, k}), ri(ACL_INT32, {R, k}),
        fin(ACL_BOOL, {R});
    x.fillRandom(g, -3, 3);
    for (int64_t r = 0; r < R; ++r) fin.set(r, r == 2 ? 1 : 0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(x.get(), fin.get(), k, y.get(), ei.get(),
                                                                 ri.get(), ws, ex);
              }),
              0);
    for (int64_t r = 0; r < R; ++r) {
      std::vector<double> p(E);
      double sum = 0;
      for (int64_t e = 0; e < E; ++e) sum += (p[e] = std::exp(x.get(r * E + e)));
      std::vector<int64_t> order(E);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return p[a] > p[b]; });
      for (int64_t j = 0; j < k; ++j) {
        expectNear(y.get(r * k + j), p[order[j]] / sum, dt, "gating value");
        EXPECT_EQ(ei.get(r * k + j), r == 2 ? E : order[j]) << "row " << r;
        EXPECT_EQ(ri.get(r * k + j), j * R + r);
      }
    }
  }
}

TEST(MoeGating, V2RenormTakesTheSoftmaxOfTheTopK) {
  std::mt19937 g(4);
  const int64_t R = 4, E = 6, k = 2;
  HostTensorBuf x(ACL_FLOAT16, {R, E}), y(ACL_FLOAT16, {R, k}), ei(ACL_INT32, {R, k}), sm(ACL_FLOAT, {R, E});
  x.fillRandom(g, -2, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(x.get(), nullptr, k, 1, false, y.get(),
                                                                 ei.get(), nullptr, ws, ex);
            }),
            0);
  for (int64_t r = 0; r < R; ++r) {
    const double a = x.get(r * E + ei.get(r * k)), b = x.get(r * E + ei.get(r * k + 1));
    EXPECT_GE(a, b);
    for (int64_t e = 0; e < E; ++e) {
      if (e != ei.get(r * k) && e != ei.get(r * k + 1)) {
        EXPECT_LE(x.get(r * E + e), b);
      }
    }
    expectNear(y.get(r * k), 1 / (1 + std::exp(b - a)), ACL_FLOAT16, "renormalised top value");
  }
  // renorm 0 with the softmax written in fp32: every row sums to 1.
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(x.get(), nullptr, k, 0, true, y.get(),
                                                                 ei.get(), sm.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < R; ++r) {
    double s = 0;
    for (int64_t e = 0; e < E; ++e) s += sm.get(r * E + e);
    EXPECT_NEAR(s, 1.0, 1e-6);
    EXPECT_NEAR(y.get(r * k), sm.get(r * E + ei.get(r * k)), 1e-3);
  }
}

TEST(MoeGating, GroupTopKPicksExpertsFromTheBestGroupsAndRenormalises) {
  std::mt19937 g(14);
  const int64_t R = 6, E = 8, groups = 4, kGroup = 2, k = 3;
  const double scaling = 2.5, eps = 1e-6;
  HostTensorBuf x(ACL_FLOAT, {R, E}), bias(ACL_FLOAT, {E}), y(ACL_FLOAT, {R, k}), ei(ACL_INT32, {R, k}),
      norm(ACL_FLOAT, {R, E});
  x.fillRandom(g, -3, 3);
  bias.fillRandom(g, -0.2, 0.2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeGatingTopKGetWorkspaceSize(x.get(), bias.get(), k, kGroup, groups, 1, 0, 1, true,
                                                        scaling, eps, y.get(), ei.get(), norm.get(), ws, ex);
            }),
            0);
  for (int64_t r = 0; r < R; ++r) {
    std::vector<double> sig(E), sel(E);
    for (int64_t e = 0; e < E; ++e) {
      sig[e] = 1 / (1 + std::exp(-x.get(r * E + e)));
      sel[e] = sig[e] + bias.get(e);
      EXPECT_NEAR(norm.get(r * E + e), sig[e], 1e-6);
    }
    // Groups of two: a group's score is the sum of both; keep the best two groups.
    std::vector<int64_t> gs = {0, 1, 2, 3};
    std::sort(gs.begin(), gs.end(), [&](int64_t a, int64_t b) {
      return sel[2 * a] + sel[2 * a + 1] > sel[2 * b] + sel[2 * b + 1];
    });
    std::vector<int64_t> cand = {2 * gs[0], 2 * gs[0] + 1, 2 * gs[1], 2 * gs[1] + 1};
    std::sort(cand.begin(), cand.end(), [&](int64_t a, int64_t b) { return sel[a] > sel[b]; });
    double sum = 0;
    for (int64_t j = 0; j < k; ++j) sum += sig[cand[j]];
    for (int64_t j = 0; j < k; ++j) {
      EXPECT_EQ(ei.get(r * k + j), cand[j]) << "row " << r;
      EXPECT_NEAR(y.get(r * k + j), sig[cand[j]] / (sum + eps) * scaling, 1e-5);
    }
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMoeGatingTopKGetWorkspaceSize(x.get(), nullptr, k, 5, groups, 0, 0, 1, false, 1.0, eps,
                                               y.get(), ei.get(), nullptr, &ws, &ex),
            161002);  // kGroup above groupCount
  EXPECT_EQ(aclnnMoeGatingTopKGetWorkspaceSize(x.get(), nullptr, k, kGroup, 3, 0, 0, 1, false, 1.0, eps,
                                               y.get(), ei.get(), nullptr, &ws, &ex),
            161002);  // 3 groups do not divide 8 experts
}

TEST(MoeGating, BadArgumentsAreRefused) {
  HostTensorBuf x(ACL_FLOAT, {2, 4}), y(ACL_FLOAT, {2, 2}), ei(ACL_INT32, {2, 2}), ri(ACL_INT32, {2, 2});
  HostTensorBuf yBad(ACL_FLOAT, {2, 3}), xInt(ACL_INT32, {2, 4});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(nullptr, nullptr, 2, y.get(), ei.get(), ri.get(), &ws, &ex),
      161001);
  EXPECT_EQ(
      aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(x.get(), nullptr, 5, y.get(), ei.get(), ri.get(), &ws, &ex),
      161002);
  EXPECT_EQ(aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(x.get(), nullptr, 2, yBad.get(), ei.get(), ri.get(),
                                                      &ws, &ex),
            161002);
  EXPECT_EQ(aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(xInt.get(), nullptr, 2, y.get(), ei.get(), ri.get(),
                                                      &ws, &ex),
            161002);
  EXPECT_EQ(aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(x.get(), nullptr, 2, 2, false, y.get(), ei.get(),
                                                        nullptr, &ws, &ex),
            161002);
}

TEST(MoeRouting, InitRoutingSortsByExpertAndGathersRows) {
  std::mt19937 g(5);
  const int64_t N = 6, k = 2, H = 3, E = 4, active = 4;
  HostTensorBuf x(ACL_BF16, {N, H}), ri(ACL_INT32, {N, k}), ei(ACL_INT32, {N, k});
  HostTensorBuf ex(ACL_BF16, {active * k, H}), eri(ACL_INT32, {N * k}), eei(ACL_INT32, {N * k});
  x.fillRandom(g, -4, 4);
  fillChoices(ei, E, g);
  for (int64_t i = 0; i < N; ++i) {
    for (int64_t j = 0; j < k; ++j) ri.set(i * k + j, j * N + i);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeInitRoutingGetWorkspaceSize(x.get(), ri.get(), ei.get(), active, ex.get(),
                                                         eri.get(), eei.get(), ws, e);
            }),
            0);
  for (int64_t p = 1; p < N * k; ++p) EXPECT_LE(eei.get(p - 1), eei.get(p));
  std::vector<int> seen(N * k, 0);
  for (int64_t i = 0; i < N; ++i) {
    for (int64_t j = 0; j < k; ++j) {
      const int64_t p = static_cast<int64_t>(eri.get(j * N + i));
      ASSERT_GE(p, 0);
      ASSERT_LT(p, N * k);
      ++seen[p];
      EXPECT_EQ(eei.get(p), ei.get(i * k + j));
      if (p < active * k) {
        for (int64_t h = 0; h < H; ++h) EXPECT_EQ(ex.get(p * H + h), x.get(i * H + h));
      }
    }
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  // The quantised form gathers the same rows as rint(x * scale + offset) in int8.
  HostTensorBuf exq(ACL_INT8, {active * k, H}), eri2(ACL_INT32, {N * k}), eei2(ACL_INT32, {N * k});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeInitRoutingQuantGetWorkspaceSize(x.get(), ri.get(), ei.get(), active, 40.0, 2.0,
                                                              exq.get(), eri2.get(), eei2.get(), ws, e);
            }),
            0);
  for (int64_t i = 0; i < N * k; ++i) EXPECT_EQ(eri2.get(i), eri.get(i));
  for (int64_t i = 0; i < active * k * H; ++i) {
    EXPECT_EQ(exq.get(i), std::min(127.0, std::max(-128.0, std::nearbyint(ex.get(i) * 40.0 + 2.0)))) << i;
  }
}

TEST(MoeRouting, InitRoutingV2DroplessCountsAndDropPadCapacity) {
  std::mt19937 g(6);
  const int64_t N = 5, k = 2, H = 4, E = 3;
  HostTensorBuf x(ACL_FLOAT, {N, H}), ei(ACL_INT32, {N, k});
  x.fillRandom(g, -1, 1);
  fillChoices(ei, E, g);
  std::vector<int64_t> hist(E, 0);
  for (int64_t i = 0; i < N * k; ++i) ++hist[static_cast<size_t>(ei.get(i))];
  {  // dropless, cumulative counts
    HostTensorBuf ex(ACL_FLOAT, {N * k, H}), eri(ACL_INT32, {N * k}), cnt(ACL_INT64, {E});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeInitRoutingV2GetWorkspaceSize(x.get(), ei.get(), 0, 0, E, 0, 1, false,
                                                             ex.get(), eri.get(), cnt.get(), nullptr, ws, e);
              }),
              0);
    int64_t cum = 0;
    for (int64_t e = 0; e < E; ++e) EXPECT_EQ(cnt.get(e), cum += hist[e]);
    for (int64_t f = 0; f < N * k; ++f) {
      const int64_t p = static_cast<int64_t>(eri.get(f));
      for (int64_t h = 0; h < H; ++h) EXPECT_EQ(ex.get(p * H + h), x.get(f / k * H + h));
    }
  }
  {  // drop/pad with capacity 2: at most 2 tokens per expert, the rest -1, empty slots 0
    const int64_t C = 2;
    HostTensorBuf ex(ACL_FLOAT, {E, C, H}), eri(ACL_INT32, {N * k}), before(ACL_INT32, {E});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeInitRoutingV2GetWorkspaceSize(x.get(), ei.get(), 0, C, E, 1, 0, true, ex.get(),
                                                             eri.get(), nullptr, before.get(), ws, e);
              }),
              0);
    std::vector<int64_t> used(E, 0);
    for (int64_t f = 0; f < N * k; ++f) {  // the earliest flat indices of each expert keep their slot
      const int64_t e = static_cast<int64_t>(ei.get(f)), slot = static_cast<int64_t>(eri.get(f));
      if (used[e] < C) {
        EXPECT_EQ(slot, e * C + used[e]);
        for (int64_t h = 0; h < H; ++h) EXPECT_EQ(ex.get(slot * H + h), x.get(f / k * H + h));
        ++used[e];
      } else {
        EXPECT_EQ(slot, -1);
      }
    }
    for (int64_t e = 0; e < E; ++e) {
      EXPECT_EQ(before.get(e), hist[e]);
      for (int64_t s = used[e]; s < C; ++s) EXPECT_EQ(ex.get((e * C + s) * H), 0.0);
    }
  }
}

TEST(MoeRouting, ComputeExpertTokensGivesEachExpertsEnd) {
  HostTensorBuf sorted(ACL_INT32, {7}), out(ACL_INT32, {4});
  const int v[7] = {0, 0, 2, 2, 2, 3, 3};
  for (int i = 0; i < 7; ++i) sorted.set(i, v[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeComputeExpertTokensGetWorkspaceSize(sorted.get(), 4, out.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(out.get(0), 2);
  EXPECT_EQ(out.get(1), 2);
  EXPECT_EQ(out.get(2), 5);
  EXPECT_EQ(out.get(3), 7);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMoeComputeExpertTokensGetWorkspaceSize(sorted.get(), 3, out.get(), &ws, &ex), 161002);
}

TEST(MoeRouting, FinalizeRoutingWeighsExpertOutputsPlusBias) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
    std::mt19937 g(8);
    const int64_t N = 4, K = 2, H = 5, E = 3;
    HostTensorBuf ex(dt, {N * K, H}), x1(dt, {N, H}), x2(dt, {N, H}), bias(dt, {E, H}), sc(dt, {N, K});
    HostTensorBuf rows(ACL_INT32, {N * K}), eidx(ACL_INT32, {N, K}), out(dt, {N, H}), out2(dt, {N, H});
    for (HostTensorBuf* t : {&ex, &x1, &x2, &bias, &sc}) t->fillRandom(g, -1, 1);
    std::vector<int> perm(N * K);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), g);
    for (int64_t i = 0; i < N * K; ++i) rows.set(i, perm[i]);
    fillChoices(eidx, E, g);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeFinalizeRoutingGetWorkspaceSize(ex.get(), x1.get(), x2.get(), bias.get(),
                                                               sc.get(), rows.get(), eidx.get(), out.get(),
                                                               ws, e);
              }),
              0);
    // V2 in mode 2 (row-major indices) without x2 and bias.
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeFinalizeRoutingV2GetWorkspaceSize(ex.get(), rows.get(), x1.get(), nullptr,
                                                                 nullptr, sc.get(), nullptr, 2, out2.get(),
                                                                 ws, e);
              }),
              0);
    for (int64_t i = 0; i < N; ++i) {
      for (int64_t h = 0; h < H; ++h) {
        double want = x1.get(i * H + h) + x2.get(i * H + h), want2 = x1.get(i * H + h);
        for (int64_t k = 0; k < K; ++k) {
          const int64_t r = static_cast<int64_t>(rows.get(i + k * N)),
                        e = static_cast<int64_t>(eidx.get(i * K + k));
          want += sc.get(i * K + k) * (ex.get(r * H + h) + bias.get(e * H + h));
          want2 += sc.get(i * K + k) * ex.get(static_cast<int64_t>(rows.get(i * K + k)) * H + h);
        }
        EXPECT_NEAR(out.get(i * H + h), want, 4 * tol(dt) * std::max(1.0, std::fabs(want)));
        EXPECT_NEAR(out2.get(i * H + h), want2, 4 * tol(dt) * std::max(1.0, std::fabs(want2)));
      }
    }
  }
}

TEST(MoePermute, PermuteThenUnpermuteWeighsEachTokensCopies) {
  for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
    std::mt19937 g(9);
    const int64_t T = 6, K = 3, H = 4, E = 5;
    HostTensorBuf x(dt, {T, H}), idx(ACL_INT32, {T, K}), perm(dt, {T * K, H}), sorted(ACL_INT32, {T * K});
    HostTensorBuf probs(dt, {T, K}), back(dt, {T, H}), grad(dt, {T, H});
    x.fillRandom(g, -2, 2);
    probs.fillRandom(g, 0, 1);
    fillChoices(idx, E, g);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeTokenPermuteGetWorkspaceSize(x.get(), idx.get(), 0, false, perm.get(),
                                                            sorted.get(), ws, e);
              }),
              0);
    // Rows ordered by expert, each the copy of its token.
    for (int64_t f = 0; f < T * K; ++f) {
      const int64_t p = static_cast<int64_t>(sorted.get(f));
      for (int64_t h = 0; h < H; ++h) EXPECT_EQ(perm.get(p * H + h), x.get(f / K * H + h));
      for (int64_t f2 = 0; f2 < T * K; ++f2) {
        if (idx.get(f2) < idx.get(f) || (idx.get(f2) == idx.get(f) && f2 < f)) {
          EXPECT_LT(sorted.get(f2), p);
        }
      }
    }
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeTokenUnpermuteGetWorkspaceSize(perm.get(), sorted.get(), probs.get(), false,
                                                              nullptr, back.get(), ws, e);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeTokenPermuteGradGetWorkspaceSize(perm.get(), sorted.get(), K, false,
                                                                grad.get(), ws, e);
              }),
              0);
    for (int64_t t = 0; t < T; ++t) {
      double w = 0;
      for (int64_t k = 0; k < K; ++k) w += probs.get(t * K + k);
      for (int64_t h = 0; h < H; ++h) {
        const double v = x.get(t * H + h);
        EXPECT_NEAR(back.get(t * H + h), w * v, 4 * tol(dt) * std::max(1.0, std::fabs(w * v)));
        EXPECT_NEAR(grad.get(t * H + h), K * v, 4 * tol(dt) * std::max(1.0, std::fabs(K * v)));
      }
    }
  }
}

TEST(MoePermute, NumOutTokensDropsTheTailAndUnpermuteGradMatchesTheDefinition) {
  std::mt19937 g(10);
  const int64_t T = 4, K = 2, H = 3, E = 4, kept = 5;
  HostTensorBuf x(ACL_FLOAT, {T, H}), idx(ACL_INT32, {T, K}), perm(ACL_FLOAT, {kept, H}),
      sorted(ACL_INT32, {T * K});
  x.fillRandom(g, -1, 1);
  fillChoices(idx, E, g);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeTokenPermuteGetWorkspaceSize(x.get(), idx.get(), kept, false, perm.get(),
                                                          sorted.get(), ws, e);
            }),
            0);
  HostTensorBuf probs(ACL_FLOAT, {T, K}), dy(ACL_FLOAT, {T, H}), dperm(ACL_FLOAT, {kept, H}),
      dprobs(ACL_FLOAT, {T, K});
  probs.fillRandom(g, 0, 1);
  dy.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeTokenUnpermuteGradGetWorkspaceSize(perm.get(), dy.get(), sorted.get(),
                                                                probs.get(), false, nullptr, dperm.get(),
                                                                dprobs.get(), ws, e);
            }),
            0);
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t k = 0; k < K; ++k) {
      const int64_t p = static_cast<int64_t>(sorted.get(t * K + k));
      double dot = 0;
      for (int64_t h = 0; h < H; ++h) {
        if (p < kept) {
          EXPECT_NEAR(dperm.get(p * H + h), dy.get(t * H + h) * probs.get(t * K + k), 1e-6);
          dot += dy.get(t * H + h) * x.get(t * H + h);
        }
      }
      EXPECT_NEAR(dprobs.get(t * K + k), dot, 1e-5);  // 0 for a dropped copy
    }
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMoeTokenPermuteGetWorkspaceSize(x.get(), idx.get(), kept, true, perm.get(), sorted.get(),
                                                 &ws, &ex),
            161002);
  EXPECT_EQ(
      aclnnMoeTokenPermuteGetWorkspaceSize(x.get(), nullptr, kept, false, perm.get(), sorted.get(), &ws, &ex),
      161001);
  EXPECT_EQ(
      aclnnMoeTokenPermuteGetWorkspaceSize(x.get(), idx.get(), 0, false, perm.get(), sorted.get(), &ws, &ex),
      161002);  // all 8 rows expected, perm holds 5
}

TEST(MoePermute, CostModelMovesEveryByteOnce) {
  const int64_t T = 64, K = 4, H = 256;
  HostTensorBuf x(ACL_FLOAT16, {T, H}), idx(ACL_INT32, {T, K}), perm(ACL_FLOAT16, {T * K, H}),
      sorted(ACL_INT32, {T * K});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(
      aclnnMoeTokenPermuteGetWorkspaceSize(x.get(), idx.get(), 0, false, perm.get(), sorted.get(), &ws, &ex),
      0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, static_cast<uint64_t>(T * H * 2 + T * K * 4));
  EXPECT_EQ(c.written, static_cast<uint64_t>(T * K * H * 2 + T * K * 4));
}

TEST(MoeRouting, V2GradientsMatchTheirDefinitions) {
  for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
    std::mt19937 g(15);
    const int64_t R = 4, K = 2, H = 3, E = 3;
    HostTensorBuf gy(dt, {R, H}), rows(ACL_INT32, {R * K}), ex(dt, {R * K, H}), sc(dt, {R, K}),
        bias(dt, {E, H});
    HostTensorBuf eidx(ACL_INT32, {R, K}), gx(dt, {R * K, H}), gs(dt, {R, K}), back(dt, {R, H});
    for (HostTensorBuf* t : {&gy, &ex, &sc, &bias}) t->fillRandom(g, -1, 1);
    std::vector<int> perm(R * K);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), g);
    for (int64_t i = 0; i < R * K; ++i) rows.set(i, perm[i]);
    fillChoices(eidx, E, g);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeFinalizeRoutingV2GradGetWorkspaceSize(gy.get(), rows.get(), ex.get(), sc.get(),
                                                                     eidx.get(), bias.get(), 0, 0, 0, 0,
                                                                     gx.get(), gs.get(), ws, e);
              }),
              0);
    for (int64_t i = 0; i < R * K; ++i) {
      const int64_t r = perm[i], t = i / K, e = static_cast<int64_t>(eidx.get(i));
      double dot = 0;
      for (int64_t h = 0; h < H; ++h) {
        expectNear(gx.get(r * H + h), gy.get(t * H + h) * sc.get(i), dt, "gradExpandedX");
        dot += gy.get(t * H + h) * (ex.get(r * H + h) + bias.get(e * H + h));
      }
      EXPECT_NEAR(gs.get(i), dot, 4 * tol(dt) * std::max(1.0, std::fabs(dot)));
    }
    // InitRoutingV2Grad sums each token's K copies back: with gradExpandedX = gx, token t gets
    // sum_k gy[t] * scale[t, k].
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnMoeInitRoutingV2GradGetWorkspaceSize(gx.get(), rows.get(), K, 0, 0, back.get(),
                                                                 ws, e);
              }),
              0);
    for (int64_t t = 0; t < R; ++t) {
      for (int64_t h = 0; h < H; ++h) {
        double want = 0;
        for (int64_t k = 0; k < K; ++k) want += gx.get(perm[t * K + k] * H + h);
        EXPECT_NEAR(back.get(t * H + h), want, 4 * tol(dt) * std::max(1.0, std::fabs(want)));
      }
    }
  }
  HostTensorBuf gx(ACL_FLOAT, {4, 3}), rows(ACL_INT32, {4}), out(ACL_FLOAT, {2, 3});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMoeInitRoutingV2GradGetWorkspaceSize(gx.get(), rows.get(), 3, 0, 0, out.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnMoeInitRoutingV2GradGetWorkspaceSize(gx.get(), rows.get(), 2, 2, 0, out.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnMoeInitRoutingV2GradGetWorkspaceSize(nullptr, rows.get(), 2, 0, 0, out.get(), &ws, &ex),
            161001);
}

TEST(MoePermute, ExpertParallelFormsKeepTheirRanksSlice) {
  std::mt19937 g(16);
  const int64_t T = 5, K = 2, H = 3, E = 4, r0 = 3, r1 = 7, n = r1 - r0;
  HostTensorBuf x(ACL_FLOAT, {T, H}), idx(ACL_INT32, {T, K}), probs(ACL_FLOAT, {T, K});
  HostTensorBuf perm(ACL_FLOAT, {n, H}), sorted(ACL_INT32, {T * K}), pprobs(ACL_FLOAT, {n});
  x.fillRandom(g, -1, 1);
  probs.fillRandom(g, 0, 1);
  fillChoices(idx, E, g);
  const int64_t rv[2] = {r0, r1};
  aclIntArray* range = aclCreateIntArray(rv, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeTokenPermuteWithEpGetWorkspaceSize(x.get(), idx.get(), probs.get(), range, 0,
                                                                false, perm.get(), sorted.get(), pprobs.get(),
                                                                ws, e);
            }),
            0);
  for (int64_t f = 0; f < T * K; ++f) {
    const int64_t p = static_cast<int64_t>(sorted.get(f));
    if (p < r0 || p >= r1) continue;
    for (int64_t h = 0; h < H; ++h) EXPECT_EQ(perm.get((p - r0) * H + h), x.get(f / K * H + h));
    EXPECT_EQ(pprobs.get(p - r0), probs.get(f));
  }
  // Unpermute of this rank's rows: each token gets only the copies in the slice.
  HostTensorBuf out(ACL_FLOAT, {T, H}), tokGrad(ACL_FLOAT, {T, H}), probGrad(ACL_FLOAT, {T, K});
  HostTensorBuf permGrad(ACL_FLOAT, {n, H}), probsGrad2(ACL_FLOAT, {T, K});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(perm.get(), sorted.get(), probs.get(), K,
                                                                  range, false, nullptr, out.get(), ws, e);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeTokenPermuteWithEpGradGetWorkspaceSize(perm.get(), sorted.get(), pprobs.get(), K,
                                                                    range, false, tokGrad.get(),
                                                                    probGrad.get(), ws, e);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeTokenUnpermuteWithEpGradGetWorkspaceSize(
                  out.get(), sorted.get(), perm.get(), probs.get(), false, nullptr, range, K, permGrad.get(),
                  probsGrad2.get(), ws, e);
            }),
            0);
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t h = 0; h < H; ++h) {
      double want = 0, count = 0;
      for (int64_t k = 0; k < K; ++k) {
        const int64_t p = static_cast<int64_t>(sorted.get(t * K + k));
        if (p >= r0 && p < r1) {
          want += probs.get(t * K + k) * x.get(t * H + h);
          count += x.get(t * H + h);
        }
      }
      EXPECT_NEAR(out.get(t * H + h), want, 1e-6);
      EXPECT_NEAR(tokGrad.get(t * H + h), count, 1e-6);
    }
    for (int64_t k = 0; k < K; ++k) {
      const int64_t f = t * K + k, p = static_cast<int64_t>(sorted.get(f));
      const bool mine = p >= r0 && p < r1;
      EXPECT_EQ(probGrad.get(f), mine ? probs.get(f) : 0.0);
      double dot = 0;
      for (int64_t h = 0; h < H; ++h) {
        if (mine) {
          EXPECT_NEAR(permGrad.get((p - r0) * H + h), out.get(t * H + h) * probs.get(f), 1e-6);
          dot += out.get(t * H + h) * x.get(t * H + h);
        }
      }
      EXPECT_NEAR(probsGrad2.get(f), dot, 1e-5);
    }
  }
  const int64_t bad[2] = {5, 2};
  aclIntArray* badRange = aclCreateIntArray(bad, 2);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(perm.get(), sorted.get(), probs.get(), K, badRange,
                                                         false, nullptr, out.get(), &ws, &ex),
            161002);
  aclDestroyIntArray(badRange);
  aclDestroyIntArray(range);
}

TEST(MoeRouting, InitRoutingQuantV2StaticAndDynamic) {
  std::mt19937 g(17);
  const int64_t N = 4, k = 2, H = 6, E = 3;
  HostTensorBuf x(ACL_FLOAT16, {N, H}), ei(ACL_INT32, {N, k}), sc(ACL_FLOAT, {H}), off(ACL_FLOAT, {1});
  HostTensorBuf ex(ACL_FLOAT16, {N * k, H}), eri(ACL_INT32, {N * k});
  HostTensorBuf q(ACL_INT8, {N * k, H}), eri2(ACL_INT32, {N * k}), dyn(ACL_FLOAT, {N * k});
  x.fillRandom(g, -2, 2);
  sc.fillRandom(g, 0.5, 2);
  off.set(0, 1.5);
  fillChoices(ei, E, g);
  // The unquantised V2 gives the rows each quantised form must hold.
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeInitRoutingV2GetWorkspaceSize(x.get(), ei.get(), 0, 0, E, 0, 0, false, ex.get(),
                                                           eri.get(), nullptr, nullptr, ws, e);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeInitRoutingQuantV2GetWorkspaceSize(x.get(), ei.get(), sc.get(), off.get(), 0, 0,
                                                                E, 0, 0, false, 0, q.get(), eri2.get(),
                                                                nullptr, nullptr, nullptr, ws, e);
            }),
            0);
  for (int64_t i = 0; i < N * k * H; ++i) {
    EXPECT_NEAR(q.get(i), std::min(127.0, std::max(-128.0, std::nearbyint(ex.get(i) * sc.get(i % H) + 1.5))),
                1.0);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnMoeInitRoutingQuantV2GetWorkspaceSize(x.get(), ei.get(), sc.get(), nullptr, 0, 0, E,
                                                                0, 0, false, 1, q.get(), eri2.get(), nullptr,
                                                                nullptr, dyn.get(), ws, e);
            }),
            0);
  for (int64_t r = 0; r < N * k; ++r) {
    EXPECT_EQ(eri2.get(r), eri.get(r));
    double m = 0;
    for (int64_t h = 0; h < H; ++h) m = std::max(m, std::fabs(ex.get(r * H + h) * sc.get(h)));
    EXPECT_NEAR(dyn.get(r), m / 127, 1e-5 * m);
    for (int64_t h = 0; h < H; ++h) {
      EXPECT_NEAR(q.get(r * H + h), std::nearbyint(ex.get(r * H + h) * sc.get(h) / (m / 127)), 1.0);
    }
  }
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(
      aclnnMoeInitRoutingQuantV2GetWorkspaceSize(x.get(), ei.get(), nullptr, nullptr, 0, 0, E, 0, 0, false, 0,
                                                 q.get(), eri2.get(), nullptr, nullptr, nullptr, &ws, &e),
      161001);  // static needs scale and offset
  EXPECT_EQ(
      aclnnMoeInitRoutingQuantV2GetWorkspaceSize(x.get(), ei.get(), sc.get(), off.get(), 0, 0, E, 0, 0, false,
                                                 2, q.get(), eri2.get(), nullptr, nullptr, nullptr, &ws, &e),
      161002);
}
