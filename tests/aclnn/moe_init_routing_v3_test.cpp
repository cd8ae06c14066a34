// aclnnMoeInitRoutingV3 on host memory against a reference written here: the choices of an active
// expert range sorted by (expert, flat index), both row-index layouts, per-expert counts and
// key_value pairs, the non-quantised copy with its per-row scale and the dynamic int8
// quantisation; refused modes and the bytes the cost model charges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_moe_init_routing_v3.h"

using namespace aclnn_test;

namespace {

// The active choices f (expert in [start, end)) in (expert, f) order.
std::vector<int64_t> activeOrder(HostTensorBuf& idx, int64_t start, int64_t end) {
  std::vector<int64_t> order;
  for (int64_t f = 0; f < idx.numel(); ++f) {
    const int64_t e = static_cast<int64_t>(idx.get(f));
    if (e >= start && e < end) order.push_back(f);
  }
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return idx.get(a) < idx.get(b); });
  return order;
}

}  // namespace

TEST(MoeInitRoutingV3, ActiveRangeGathersSortedRowsWithCountsAndScales) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int64_t rowIdxType : {0, 1}) {
      std::mt19937 g(5);
      const int64_t N = 5, K = 3, H = 4, E = 6, start = 1, end = 4;
      HostTensorBuf x(dt, {N, H}), idx(ACL_INT32, {N, K}), scale(ACL_FLOAT, {N});
      HostTensorBuf ex(dt, {N * K, H}), rowIdx(ACL_INT32, {N * K}), counts(ACL_INT64, {end - start}),
          exScale(ACL_FLOAT, {N * K});
      x.fillRandom(g, -2, 2);
      scale.fillRandom(g, 0.5, 1.5);
      std::uniform_int_distribution<int> pick(0, static_cast<int>(E - 1));
      for (int64_t f = 0; f < N * K; ++f) idx.set(f, pick(g));
      std::vector<int64_t> range = {start, end};
      aclIntArray* r = aclCreateIntArray(range.data(), range.size());
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** exec) {
                  return aclnnMoeInitRoutingV3GetWorkspaceSize(
                      x.get(), idx.get(), scale.get(), nullptr, N * K, 0, E, 0, 1, true, -1, r, rowIdxType,
                      ex.get(), rowIdx.get(), counts.get(), exScale.get(), ws, exec);
                }),
                0);
      aclDestroyIntArray(r);
      const std::vector<int64_t> order = activeOrder(idx, start, end);
      const int64_t available = static_cast<int64_t>(order.size());
      ASSERT_GT(available, 0);
      ASSERT_LT(available, N * K);  // some choices fall outside the range
      std::vector<int64_t> wantRow(static_cast<size_t>(N * K), -1),
          wantCounts(static_cast<size_t>(end - start), 0);
      for (int64_t p = 0; p < available; ++p) {
        const int64_t f = order[p];
        ++wantCounts[static_cast<int64_t>(idx.get(f)) - start];
        wantRow[rowIdxType == 1 ? f : p] = rowIdxType == 1 ? p : f;
        for (int64_t h = 0; h < H; ++h) EXPECT_EQ(ex.get(p * H + h), x.get(f / K * H + h)) << "row " << p;
        EXPECT_EQ(exScale.get(p), scale.get(f / K));
      }
      for (int64_t p = available; p < N * K; ++p) EXPECT_EQ(ex.get(p * H), 0.0);
      for (int64_t f = 0; f < N * K; ++f) EXPECT_EQ(rowIdx.get(f), wantRow[f]) << "rowIdxType " << rowIdxType;
      for (int64_t e = 0; e < end - start; ++e) EXPECT_EQ(counts.get(e), wantCounts[e]);
    }
  }
}

TEST(MoeInitRoutingV3, DynamicQuantWithExpertScalesAndKeyValueCounts) {
  std::mt19937 g(9);
  const int64_t N = 4, K = 2, H = 8, E = 4;
  HostTensorBuf x(ACL_BF16, {N, H}), idx(ACL_INT32, {N, K}), scale(ACL_FLOAT, {E, H});
  HostTensorBuf ex(ACL_INT8, {N * K, H}), rowIdx(ACL_INT32, {N * K}), kv(ACL_INT64, {E, 2}),
      exScale(ACL_FLOAT, {N * K});
  x.fillRandom(g, -3, 3);
  scale.fillRandom(g, 0.5, 2);
  const std::vector<int> choice = {0, 2, 2, 0, 0, 2, 2, 0};  // experts 1 and 3 get no token
  for (int64_t f = 0; f < N * K; ++f) idx.set(f, choice[f]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** exec) {
              return aclnnMoeInitRoutingV3GetWorkspaceSize(x.get(), idx.get(), scale.get(), nullptr, N * K, 0,
                                                           E, 0, 2, true, 1, nullptr, 1, ex.get(),
                                                           rowIdx.get(), kv.get(), exScale.get(), ws, exec);
            }),
            0);
  const std::vector<int64_t> order = activeOrder(idx, 0, E);
  for (int64_t p = 0; p < N * K; ++p) {
    const int64_t f = order[p], e = choice[f];
    EXPECT_EQ(rowIdx.get(f), p);
    double m = 0;
    for (int64_t h = 0; h < H; ++h) m = std::max(m, std::fabs(x.get(f / K * H + h) * scale.get(e * H + h)));
    EXPECT_NEAR(exScale.get(p), m / 127, 1e-6 * m);
    for (int64_t h = 0; h < H; ++h) {
      const double want = std::nearbyint(x.get(f / K * H + h) * scale.get(e * H + h) / (m / 127));
      EXPECT_NEAR(ex.get(p * H + h), want, 1.0) << "row " << p;  // the quotient may sit on a .5
    }
  }
  const std::vector<int64_t> wantKv = {0, 4, 2, 4, 0, 0, 0, 0};
  for (int64_t i = 0; i < E * 2; ++i) EXPECT_EQ(kv.get(i), wantKv[i]);
}

TEST(MoeInitRoutingV3, RefusedModesAndBadArguments) {
  const int64_t N = 2, K = 2, H = 4, E = 4;
  HostTensorBuf x(ACL_FLOAT, {N, H}), idx(ACL_INT32, {N, K}), ex(ACL_FLOAT, {N * K, H}),
      rowIdx(ACL_INT32, {N * K}), counts(ACL_INT64, {E}), exBad(ACL_FLOAT, {N * K + 1, H}),
      idx64(ACL_INT64, {N, K});
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  auto call = [&](const aclTensor* xi, const aclTensor* ii, int64_t dropPad, int64_t type, int64_t quant,
                  const aclTensor* out) {
    return aclnnMoeInitRoutingV3GetWorkspaceSize(xi, ii, nullptr, nullptr, N * K, 0, E, dropPad, type, true,
                                                 quant, nullptr, 1, out, rowIdx.get(), counts.get(), nullptr,
                                                 &ws, &exec);
  };
  EXPECT_EQ(call(nullptr, idx.get(), 0, 1, -1, ex.get()), 161001);
  EXPECT_EQ(call(x.get(), idx.get(), 0, 1, -1, nullptr), 161001);
  EXPECT_EQ(call(x.get(), idx64.get(), 0, 1, -1, ex.get()), 161002);
  EXPECT_EQ(call(x.get(), idx.get(), 1, 1, -1, ex.get()), 161002);  // drop/pad: not supported by the doc
  EXPECT_EQ(call(x.get(), idx.get(), 0, 0, -1, ex.get()), 161002);  // cumsum: not supported by the doc
  EXPECT_EQ(call(x.get(), idx.get(), 0, 1, 0, ex.get()), 161002);   // static quant: not supported
  EXPECT_EQ(call(x.get(), idx.get(), 0, 1, 1, ex.get()), 161002);   // dynamic quant needs int8 out
  EXPECT_EQ(call(x.get(), idx.get(), 0, 1, -1, exBad.get()), 161002);
  EXPECT_EQ(aclnnMoeInitRoutingV3GetWorkspaceSize(x.get(), idx.get(), nullptr, nullptr, N * K - 1, 0, E, 0, 1,
                                                  true, -1, nullptr, 1, ex.get(), rowIdx.get(), counts.get(),
                                                  nullptr, &ws, &exec),
            161002);  // activeNum must be N * K
  std::vector<int64_t> bad = {3, 5};
  aclIntArray* r = aclCreateIntArray(bad.data(), bad.size());
  EXPECT_EQ(
      aclnnMoeInitRoutingV3GetWorkspaceSize(x.get(), idx.get(), nullptr, nullptr, N * K, 0, E, 0, 1, true, -1,
                                            r, 1, ex.get(), rowIdx.get(), counts.get(), nullptr, &ws, &exec),
      161002);
  aclDestroyIntArray(r);
}

TEST(MoeInitRoutingV3, CostModelMovesEveryByteOnce) {
  const int64_t N = 64, K = 4, H = 256, E = 8;
  HostTensorBuf x(ACL_FLOAT16, {N, H}), idx(ACL_INT32, {N, K}), ex(ACL_FLOAT16, {N * K, H}),
      rowIdx(ACL_INT32, {N * K}), counts(ACL_INT64, {E});
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnMoeInitRoutingV3GetWorkspaceSize(x.get(), idx.get(), nullptr, nullptr, N * K, 0, E, 0, 1,
                                                  true, -1, nullptr, 1, ex.get(), rowIdx.get(), counts.get(),
                                                  nullptr, &ws, &exec),
            0);
  const Charged c = chargedBytes(exec);
  EXPECT_EQ(c.read, static_cast<uint64_t>(N * H * 2 + N * K * 4));
  EXPECT_EQ(c.written, static_cast<uint64_t>(N * K * H * 2 + N * K * 4 + E * 8));
}
