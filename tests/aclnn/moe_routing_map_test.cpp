// MoE token permutation by a routing map (aclnnMoeTokenPermuteWithRoutingMap and its gradient)
// on host memory against references written here: the dropless order (experts in turn, tokens
// in order within one) with a token routed nowhere and an expert with no tokens, the drop-and-pad
// capacity layout with its padding tokens, the gradients through the adjoint identity
// <P x, y> = <x, P^T y>, the unpermute as the weighted inverse of the permute and its gradient
// through the same identity, argument errors and the bytes the cost model charges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_moe_token_permute_with_routing_map.h"
#include "aclnnop/aclnn_moe_token_permute_with_routing_map_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_routing_map.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_routing_map_grad.h"

using namespace aclnn_test;

namespace {

// A [T, E] map marking `k` distinct random experts per token, except token `idle` (none) and
// expert `unused` (never chosen). Returns the marks row-major.
std::vector<int> randomMap(int64_t T, int64_t E, int64_t k, int64_t idle, int64_t unused, std::mt19937& g) {
  std::vector<int> m(static_cast<size_t>(T * E), 0);
  for (int64_t t = 0; t < T; ++t) {
    if (t == idle) continue;
    std::vector<int64_t> experts;
    for (int64_t e = 0; e < E; ++e) {
      if (e != unused) experts.push_back(e);
    }
    std::shuffle(experts.begin(), experts.end(), g);
    for (int64_t j = 0; j < k; ++j) m[t * E + experts[j]] = 1;
  }
  return m;
}

// The reference dropless layout: (token, expert) of each slot, experts in turn.
std::vector<std::pair<int64_t, int64_t>> droplessSlots(const std::vector<int>& m, int64_t T, int64_t E) {
  std::vector<std::pair<int64_t, int64_t>> slots;
  for (int64_t e = 0; e < E; ++e) {
    for (int64_t t = 0; t < T; ++t) {
      if (m[t * E + e] != 0) slots.emplace_back(t, e);
    }
  }
  return slots;
}

// Random tokens and probabilities with a map of k experts per token, permuted (without the
// probabilities) into `rows` rows in the dropless or padded layout.
struct Routed {
  HostTensorBuf x, map, probs, px, sorted;
  Routed(aclDataType dt, aclDataType mapType, int64_t T, int64_t E, int64_t k, int64_t H, int64_t rows,
         bool pad, std::mt19937& g)
      : x(dt, {T, H}), map(mapType, {T, E}), probs(dt, {T, E}), px(dt, {rows, H}), sorted(ACL_INT32, {rows}) {
    const std::vector<int> m = randomMap(T, E, k, -1, -1, g);
    x.fillRandom(g, -1, 1);
    probs.fillRandom(g, 0, 1);
    for (int64_t i = 0; i < T * E; ++i) map.set(i, m[i]);
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
                    x.get(), map.get(), nullptr, rows, pad, px.get(), nullptr, sorted.get(), ws, ex);
              }),
              0);
  }
};

}  // namespace

TEST(MoeRoutingMap, DroplessPermuteOrdersByExpertThenToken) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType mapType : {ACL_BOOL, ACL_INT8}) {
      std::mt19937 g(7);
      const int64_t T = 6, E = 5, k = 2, H = 3;
      // Token 2 is routed nowhere and expert 4 gets no token: the rows hold the 10 marked pairs
      // and numOutTokens = T * k = 12 leaves two rows (and two sortedIndices) unfilled.
      const std::vector<int> m = randomMap(T, E, k, 2, 4, g);
      HostTensorBuf x(dt, {T, H}), map(mapType, {T, E}), probs(dt, {T, E});
      HostTensorBuf out(dt, {T * k, H}), pprobs(dt, {T * k}), sorted(ACL_INT32, {T * k});
      x.fillRandom(g, -2, 2);
      probs.fillRandom(g, 0, 1);
      for (int64_t i = 0; i < T * E; ++i) map.set(i, m[i]);
      for (int64_t i = 0; i < out.numel(); ++i) out.set(i, 9);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
                      x.get(), map.get(), probs.get(), T * k, false, out.get(), pprobs.get(), sorted.get(),
                      ws, ex);
                }),
                0);
      const auto slots = droplessSlots(m, T, E);
      ASSERT_EQ(slots.size(), 10u);
      for (int64_t p = 0; p < T * k; ++p) {
        const bool filled = p < static_cast<int64_t>(slots.size());
        for (int64_t h = 0; h < H; ++h) {
          EXPECT_EQ(out.get(p * H + h), filled ? x.get(slots[p].first * H + h) : 0.0) << "row " << p;
        }
        EXPECT_EQ(pprobs.get(p), filled ? probs.get(slots[p].first * E + slots[p].second) : 0.0);
      }
      // sortedIndices: the slot of each marked pair in token order, -1 past them.
      int64_t f = 0;
      for (int64_t t = 0; t < T; ++t) {
        for (int64_t e = 0; e < E; ++e) {
          if (m[t * E + e] == 0) continue;
          const auto it = std::find(slots.begin(), slots.end(), std::make_pair(t, e));
          EXPECT_EQ(sorted.get(f++), it - slots.begin());
        }
      }
      for (; f < T * k; ++f) EXPECT_EQ(sorted.get(f), -1);
    }
  }
}

TEST(MoeRoutingMap, DropAndPadFillsEachExpertsCapacity) {
  const int64_t T = 5, E = 3, H = 2, C = 2;
  // Expert 0 has three tokens (one dropped), expert 1 one (one padding slot), expert 2 none.
  const std::vector<int> m = {1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0};
  HostTensorBuf x(ACL_FLOAT, {T, H}), map(ACL_BOOL, {T, E}), probs(ACL_FLOAT, {T, E});
  HostTensorBuf out(ACL_FLOAT, {E * C, H}), pprobs(ACL_FLOAT, {E * C}), sorted(ACL_INT32, {E * C});
  std::mt19937 g(1);
  x.fillRandom(g, -1, 1);
  probs.fillRandom(g, 0, 1);
  for (int64_t i = 0; i < T * E; ++i) map.set(i, m[i]);
  // numOutTokens 7 rounds down to E * C = 6 rows.
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
                  x.get(), map.get(), probs.get(), 7, true, out.get(), pprobs.get(), sorted.get(), ws, ex);
            }),
            0);
  // Expert 0: tokens 0, 2 (4 dropped); expert 1: token 1, then padding token 0; expert 2: 0, 1.
  const std::vector<int64_t> want = {0, 2, 1, 0, 0, 1};
  for (int64_t p = 0; p < E * C; ++p) {
    EXPECT_EQ(sorted.get(p), want[p]) << "slot " << p;
    for (int64_t h = 0; h < H; ++h) EXPECT_EQ(out.get(p * H + h), x.get(want[p] * H + h));
    EXPECT_EQ(pprobs.get(p), probs.get(want[p] * E + p / C));
  }
}

// The gradient is the permutation's adjoint: <P x, y> = <x, P^T y> for the tokens and
// <Pp probs, q> = <probs, Pp^T q> for the probabilities, in both layouts.
TEST(MoeRoutingMap, GradIsTheAdjointOfThePermute) {
  for (bool pad : {false, true}) {
    for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
      std::mt19937 g(pad ? 11 : 12);
      const int64_t T = 8, E = 4, k = 2, H = 5;
      const std::vector<int> m = randomMap(T, E, k, -1, -1, g);
      const int64_t rows = pad ? E * 3 : T * k;
      HostTensorBuf x(ACL_FLOAT, {T, H}), map(ACL_INT8, {T, E}), probs(ACL_FLOAT, {T, E});
      HostTensorBuf px(ACL_FLOAT, {rows, H}), pp(ACL_FLOAT, {rows}), sorted(ACL_INT32, {rows});
      x.fillRandom(g, -1, 1);
      probs.fillRandom(g, 0, 1);
      for (int64_t i = 0; i < T * E; ++i) map.set(i, m[i]);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
                      x.get(), map.get(), probs.get(), rows, pad, px.get(), pp.get(), sorted.get(), ws, ex);
                }),
                0);
      HostTensorBuf y(dt, {rows, H}), q(dt, {rows}), dx(dt, {T, H}), dp(dt, {T, E});
      y.fillRandom(g, -1, 1);
      q.fillRandom(g, -1, 1);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnMoeTokenPermuteWithRoutingMapGradGetWorkspaceSize(
                      y.get(), q.get(), sorted.get(), map.get(), E, T, pad, dx.get(), dp.get(), ws, ex);
                }),
                0);
      double lhs = 0, rhs = 0, plhs = 0, prhs = 0, scale = 0;
      for (int64_t i = 0; i < rows * H; ++i)
        lhs += px.get(i) * y.get(i), scale += std::fabs(px.get(i) * y.get(i));
      for (int64_t i = 0; i < T * H; ++i) rhs += x.get(i) * dx.get(i);
      for (int64_t i = 0; i < rows; ++i) plhs += pp.get(i) * q.get(i);
      for (int64_t i = 0; i < T * E; ++i) prhs += probs.get(i) * dp.get(i);
      EXPECT_NEAR(lhs, rhs, 4 * tol(dt) * scale) << "pad " << pad;
      EXPECT_NEAR(plhs, prhs, 4 * tol(dt) * rows) << "pad " << pad;
      // Without the probs the token gradient alone, the same values.
      HostTensorBuf dx2(dt, {T, H});
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnMoeTokenPermuteWithRoutingMapGradGetWorkspaceSize(
                      y.get(), nullptr, sorted.get(), nullptr, E, T, pad, dx2.get(), nullptr, ws, ex);
                }),
                0);
      for (int64_t i = 0; i < T * H; ++i) EXPECT_EQ(dx2.get(i), dx.get(i));
    }
  }
}

TEST(MoeRoutingMap, EmptyTokensGiveEmptyOutputs) {
  HostTensorBuf x(ACL_FLOAT16, {0, 4}), map(ACL_BOOL, {0, 3}), out(ACL_FLOAT16, {0, 4}),
      sorted(ACL_INT32, {0});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
                  x.get(), map.get(), nullptr, 0, false, out.get(), nullptr, sorted.get(), ws, ex);
            }),
            0);
}

// No tokens and no experts: the padded unpermute and its gradient write nothing and do not fail.
TEST(MoeRoutingMap, UnpermuteOfNothingIsEmpty) {
  HostTensorBuf px(ACL_FLOAT, {0, 3}), sorted(ACL_INT32, {0}), probs(ACL_FLOAT, {0, 0}), y(ACL_FLOAT, {0, 3}),
      oi(ACL_INT32, {0}), ti(ACL_INT32, {0}), pp(ACL_FLOAT, {0}), dp(ACL_FLOAT, {0, 0});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
                  px.get(), sorted.get(), nullptr, probs.get(), true, nullptr, y.get(), oi.get(), ti.get(),
                  pp.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize(
                  y.get(), oi.get(), ti.get(), nullptr, px.get(), probs.get(), true, nullptr, px.get(),
                  dp.get(), ws, ex);
            }),
            0);
}

TEST(MoeRoutingMap, BadArgumentsAreRefused) {
  const int64_t T = 4, E = 3, H = 2;
  HostTensorBuf x(ACL_FLOAT, {T, H}), map(ACL_BOOL, {T, E}), out(ACL_FLOAT, {T * 2, H}),
      sorted(ACL_INT32, {T * 2});
  HostTensorBuf mapF(ACL_FLOAT, {T, E}), map3(ACL_BOOL, {T, E, 1}), outBad(ACL_FLOAT, {T * 2 + 1, H}),
      xInt(ACL_INT32, {T, H}), sorted64(ACL_INT64, {T * 2}), g(ACL_FLOAT, {T * 2, H}), dx(ACL_FLOAT, {T, H}),
      q(ACL_FLOAT, {T * 2}), probs(ACL_FLOAT, {T, E});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto permute = [&](const aclTensor* tokens, const aclTensor* m, int64_t n, aclTensor* o, aclTensor* s) {
    return aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(tokens, m, nullptr, n, false, o, nullptr, s,
                                                              &ws, &ex);
  };
  EXPECT_EQ(permute(nullptr, map.get(), T * 2, out.get(), sorted.get()), 161001);
  EXPECT_EQ(permute(x.get(), nullptr, T * 2, out.get(), sorted.get()), 161001);
  EXPECT_EQ(permute(x.get(), map.get(), T * 2, out.get(), nullptr), 161001);
  EXPECT_EQ(permute(x.get(), mapF.get(), T * 2, out.get(), sorted.get()), 161002);
  EXPECT_EQ(permute(x.get(), map3.get(), T * 2, out.get(), sorted.get()), 161002);
  EXPECT_EQ(permute(xInt.get(), map.get(), T * 2, out.get(), sorted.get()), 161002);
  EXPECT_EQ(permute(x.get(), map.get(), T * 2, outBad.get(), sorted.get()), 161002);
  EXPECT_EQ(permute(x.get(), map.get(), T * 2, out.get(), sorted64.get()), 161002);
  EXPECT_EQ(permute(x.get(), map.get(), -1, out.get(), sorted.get()), 161002);
  EXPECT_EQ(permute(x.get(), map.get(), T * E + 1, out.get(), sorted.get()), 161002);
  // probs without the permuted probs output: a null output.
  EXPECT_EQ(aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(x.get(), map.get(), probs.get(), T * 2, false,
                                                               out.get(), nullptr, sorted.get(), &ws, &ex),
            161001);
  // The gradient: probs' gradient without the routing map, bad attributes, rows not a multiple.
  EXPECT_EQ(aclnnMoeTokenPermuteWithRoutingMapGradGetWorkspaceSize(g.get(), q.get(), sorted.get(), nullptr, E,
                                                                   T, false, dx.get(), nullptr, &ws, &ex),
            161001);
  EXPECT_EQ(aclnnMoeTokenPermuteWithRoutingMapGradGetWorkspaceSize(g.get(), nullptr, sorted.get(), nullptr, 0,
                                                                   T, false, dx.get(), nullptr, &ws, &ex),
            161002);
  EXPECT_EQ(aclnnMoeTokenPermuteWithRoutingMapGradGetWorkspaceSize(g.get(), nullptr, sorted.get(), nullptr, 3,
                                                                   T, true, dx.get(), nullptr, &ws, &ex),
            161002);
}

TEST(MoeRoutingMap, CostModelMovesEveryByteOnce) {
  const int64_t T = 64, E = 8, k = 2, H = 256;
  HostTensorBuf x(ACL_FLOAT16, {T, H}), map(ACL_BOOL, {T, E}), probs(ACL_FLOAT16, {T, E});
  HostTensorBuf out(ACL_FLOAT16, {T * k, H}), pp(ACL_FLOAT16, {T * k}), sorted(ACL_INT32, {T * k});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(x.get(), map.get(), probs.get(), T * k, false,
                                                               out.get(), pp.get(), sorted.get(), &ws, &ex),
            0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, static_cast<uint64_t>(T * H * 2 + T * E * 1 + T * E * 2));
  EXPECT_EQ(c.written, static_cast<uint64_t>(T * k * H * 2 + T * k * 4 + T * k * 2));
}

// Unpermute after permute: each token comes back as the sum of its copies weighted by the
// probabilities of its marked experts (dropless), or of the copies that kept it (padded).
TEST(MoeRoutingMap, UnpermuteWeighsEachTokensCopiesBack) {
  for (bool pad : {false, true}) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      std::mt19937 g(pad ? 21 : 22);
      const int64_t T = 6, E = 4, k = 2, H = 3, rows = pad ? E * 2 : T * k;
      Routed r(dt, ACL_BOOL, T, E, k, H, rows, pad, g);
      HostTensorBuf &x = r.x, &map = r.map, &probs = r.probs, &px = r.px, &sorted = r.sorted;
      HostTensorBuf y(dt, {T, H}), outIndex(ACL_INT32, {rows}), tokenId(ACL_INT32, {rows}), pp(dt, {rows});
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
                      px.get(), sorted.get(), map.get(), probs.get(), pad, nullptr, y.get(), outIndex.get(),
                      tokenId.get(), pp.get(), ws, ex);
                }),
                0);
      // Reference: which (token, expert) pairs the permute kept, each adding x[t] * probs[t, e].
      std::vector<double> want(static_cast<size_t>(T * H), 0.0);
      for (int64_t t = 0; t < T; ++t) {
        for (int64_t e = 0; e < E; ++e) {
          bool kept = !pad && map.get(t * E + e) != 0;
          for (int64_t c = 0; pad && c < rows / E; ++c) kept |= sorted.get(e * (rows / E) + c) == t;
          if (!kept) continue;
          for (int64_t h = 0; h < H; ++h) want[t * H + h] += x.get(t * H + h) * probs.get(t * E + e);
        }
      }
      for (int64_t i = 0; i < T * H; ++i) expectNear(y.get(i), want[i], dt, pad ? "padded" : "dropless");
      if (pad) {  // outIndex sorts the slots by token, permuteTokenId the tokens
        for (int64_t i = 0; i + 1 < rows; ++i) {
          EXPECT_LE(tokenId.get(i), tokenId.get(i + 1));
          EXPECT_EQ(sorted.get(static_cast<int64_t>(outIndex.get(i))), tokenId.get(i));
        }
      }
    }
  }
}

// The unpermute gradient is its adjoint in the tokens and in the probabilities:
// <U(x; probs), g> = <x, dx> = <probs, dprobs>.
TEST(MoeRoutingMap, UnpermuteGradIsTheAdjointInTokensAndProbs) {
  for (bool pad : {false, true}) {
    std::mt19937 g(pad ? 31 : 32);
    const int64_t T = 7, E = 4, k = 2, H = 5, rows = pad ? E * 3 : T * k;
    Routed r(ACL_FLOAT, ACL_INT8, T, E, k, H, rows, pad, g);
    HostTensorBuf &map = r.map, &probs = r.probs, &px = r.px, &sorted = r.sorted;
    px.fillRandom(g, -1, 1);  // any permuted tokens: the identities hold for all of them
    HostTensorBuf y(ACL_FLOAT, {T, H}), outIndex(ACL_INT32, {rows}), tokenId(ACL_INT32, {rows}),
        pp(ACL_FLOAT, {rows});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
                    px.get(), sorted.get(), map.get(), probs.get(), pad, nullptr, y.get(), outIndex.get(),
                    tokenId.get(), pp.get(), ws, ex);
              }),
              0);
    HostTensorBuf gy(ACL_FLOAT, {T, H}), dx(ACL_FLOAT, {rows, H}), dp(ACL_FLOAT, {T, E});
    gy.fillRandom(g, -1, 1);
    // Dropless: outIndex is the permute's sortedIndices; padded: the unpermute's two sort outputs.
    HostTensorBuf& slots = pad ? outIndex : sorted;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize(
                    gy.get(), slots.get(), tokenId.get(), map.get(), px.get(), probs.get(), pad, nullptr,
                    dx.get(), dp.get(), ws, ex);
              }),
              0);
    double fwd = 0, tok = 0, prb = 0;
    for (int64_t i = 0; i < T * H; ++i) fwd += y.get(i) * gy.get(i);
    for (int64_t i = 0; i < rows * H; ++i) tok += px.get(i) * dx.get(i);
    for (int64_t i = 0; i < T * E; ++i) prb += probs.get(i) * dp.get(i);
    EXPECT_NEAR(tok, fwd, 1e-4) << "pad " << pad;
    EXPECT_NEAR(prb, fwd, 1e-4) << "pad " << pad;
    EXPECT_GT(std::fabs(fwd), 1e-3);
  }
}

TEST(MoeRoutingMap, UnpermuteBadArgumentsAreRefused) {
  const int64_t T = 4, E = 2, H = 3, rows = 8;
  HostTensorBuf px(ACL_FLOAT, {rows, H}), sorted(ACL_INT32, {rows}), map(ACL_BOOL, {T, E}),
      probs(ACL_FLOAT, {T, E});
  HostTensorBuf y(ACL_FLOAT, {T, H}), oi(ACL_INT32, {rows}), ti(ACL_INT32, {rows}), pp(ACL_FLOAT, {rows});
  HostTensorBuf yBad(ACL_FLOAT, {T + 1, H}), probsHalf(ACL_FLOAT16, {T, E}), sorted64(ACL_INT64, {rows});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto unpermute = [&](const aclTensor* s, const aclTensor* mp, const aclTensor* p, aclTensor* out) {
    return aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(px.get(), s, mp, p, false, nullptr, out,
                                                                oi.get(), ti.get(), pp.get(), &ws, &ex);
  };
  EXPECT_EQ(unpermute(nullptr, map.get(), probs.get(), y.get()), 161001);
  EXPECT_EQ(unpermute(sorted.get(), map.get(), nullptr, y.get()), 161001);  // neither probs nor restoreShape
  EXPECT_EQ(unpermute(sorted.get(), nullptr, probs.get(), y.get()), 161001);  // probs need the map
  EXPECT_EQ(unpermute(sorted64.get(), map.get(), probs.get(), y.get()), 161002);
  EXPECT_EQ(unpermute(sorted.get(), map.get(), probs.get(), yBad.get()), 161002);
  EXPECT_EQ(unpermute(sorted.get(), map.get(), probsHalf.get(), y.get()), 161002);
  HostTensorBuf dx(ACL_FLOAT, {rows, H}), dxBad(ACL_FLOAT, {rows + 1, H}), dp(ACL_FLOAT, {T, E});
  EXPECT_EQ(aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize(y.get(), sorted.get(), ti.get(), nullptr,
                                                                     px.get(), probs.get(), false, nullptr,
                                                                     dx.get(), dp.get(), &ws, &ex),
            161001);
  EXPECT_EQ(aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize(
                y.get(), sorted.get(), ti.get(), map.get(), px.get(), probs.get(), false, nullptr,
                dxBad.get(), dp.get(), &ws, &ex),
            161002);
  EXPECT_EQ(aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize(y.get(), sorted.get(), ti.get(),
                                                                     map.get(), nullptr, probs.get(), false,
                                                                     nullptr, dx.get(), dp.get(), &ws, &ex),
            161001);  // the probs' gradient needs the permuted tokens
}
