// aclnnGroupedMatmulV5 on host memory against a reference written here: floating groups with
// bias (cumulative and count group lists, an empty group, rows past the last group untouched),
// W8A8 int8 groups dequantised by per-channel and per-token scales (exact int32 products over a
// long K), the refused forms, and the cube work its cost model charges.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_grouped_matmul_add.h"
#include "aclnnop/aclnn_grouped_matmul_v5.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

aclTensorList* listOf(HostTensorBuf& t) {
  aclTensor* h = listHandle(t);
  return aclCreateTensorList(&h, 1);
}

int gmm(HostTensorBuf& x, HostTensorBuf& w, HostTensorBuf* bias, HostTensorBuf* scale,
        HostTensorBuf* perToken, HostTensorBuf& groups, int64_t groupListType, HostTensorBuf& y,
        int64_t groupType = 0) {
  aclTensorList *xl = listOf(x), *wl = listOf(w), *yl = listOf(y);
  aclTensorList* bl = bias != nullptr ? listOf(*bias) : nullptr;
  aclTensorList* sl = scale != nullptr ? listOf(*scale) : nullptr;
  aclTensorList* pl = perToken != nullptr ? listOf(*perToken) : nullptr;
  const int st = run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnGroupedMatmulV5GetWorkspaceSize(xl, wl, bl, sl, nullptr, nullptr, nullptr, pl, groups.get(),
                                                nullptr, nullptr, nullptr, 3, groupType, groupListType, 0,
                                                nullptr, yl, nullptr, nullptr, ws, ex);
  });
  for (aclTensorList* l : {xl, wl, yl, bl, sl, pl}) {
    if (l != nullptr) aclDestroyTensorList(l);
  }
  return st;
}

}  // namespace

TEST(GroupedMatmul, FloatGroupsWithBiasAlongM) {
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (int64_t listType : {0, 1}) {
      std::mt19937 g(21);
      const int64_t M = 10, K = 20, N = 7, E = 3;
      HostTensorBuf x(dt, {M, K}), w(dt, {E, K, N}), b(dt, {E, N}), y(dt, {M, N}), groups(ACL_INT64, {E});
      x.fillRandom(g, -1, 1);
      w.fillRandom(g, -1, 1);
      b.fillRandom(g, -1, 1);
      for (int64_t i = 0; i < M * N; ++i) y.set(i, 42);
      const int64_t ends[3] = {3, 3, 9};  // group 1 empty, row 9 in no group
      for (int64_t e = 0; e < E; ++e)
        groups.set(e, listType == 0 ? ends[e] : ends[e] - (e > 0 ? ends[e - 1] : 0));
      ASSERT_EQ(gmm(x, w, &b, nullptr, nullptr, groups, listType, y), 0);
      for (int64_t m = 0; m < M; ++m) {
        const int64_t e = m < 3 ? 0 : 2;
        for (int64_t n = 0; n < N; ++n) {
          if (m == 9) {
            EXPECT_EQ(y.get(m * N + n), 42);
            continue;
          }
          double want = b.get(e * N + n);
          for (int64_t k = 0; k < K; ++k) want += x.get(m * K + k) * w.get((e * K + k) * N + n);
          EXPECT_NEAR(y.get(m * N + n), want, 4 * tol(dt) * std::max(1.0, std::fabs(want)));
        }
      }
    }
  }
}

TEST(GroupedMatmul, Int8GroupsDequantisedPerChannelAndPerToken) {
  std::mt19937 g(22);
  const int64_t M = 6, K = 2000, N = 5, E = 2;
  HostTensorBuf x(ACL_INT8, {M, K}), w(ACL_INT8, {E, K, N}), sc(ACL_FLOAT, {E, N}), pt(ACL_FLOAT, {M});
  HostTensorBuf b(ACL_INT32, {E, N}), y(ACL_BF16, {M, N}), groups(ACL_INT64, {E});
  x.fillRandom(g, -128, 128);
  w.fillRandom(g, -128, 128);
  b.fillRandom(g, -1000, 1000);
  sc.fillRandom(g, 1e-4, 1e-3);
  pt.fillRandom(g, 0.5, 2);
  groups.set(0, 4);
  groups.set(1, 6);
  ASSERT_EQ(gmm(x, w, &b, &sc, &pt, groups, 0, y), 0);
  for (int64_t m = 0; m < M; ++m) {
    const int64_t e = m < 4 ? 0 : 1;
    for (int64_t n = 0; n < N; ++n) {
      int64_t acc = static_cast<int64_t>(b.get(e * N + n));
      for (int64_t k = 0; k < K; ++k) {
        acc += static_cast<int64_t>(x.get(m * K + k)) * static_cast<int64_t>(w.get((e * K + k) * N + n));
      }
      const double want = static_cast<double>(acc) * sc.get(e * N + n) * pt.get(m);
      expectNear(y.get(m * N + n), want, ACL_BF16, "int8 group");
    }
  }
}

TEST(GroupedMatmul, UnsupportedFormsAreRefusedAndCubeWorkIsCharged) {
  const int64_t M = 64, K = 128, N = 256, E = 4;
  HostTensorBuf x(ACL_FLOAT16, {M, K}), w(ACL_FLOAT16, {E, K, N}), y(ACL_FLOAT16, {M, N}),
      groups(ACL_INT64, {E});
  EXPECT_EQ(gmm(x, w, nullptr, nullptr, nullptr, groups, 0, y, 2), 161002);  // split along K
  EXPECT_EQ(gmm(x, w, nullptr, nullptr, nullptr, groups, 3, y), 161002);     // bad groupListType
  HostTensorBuf wBad(ACL_FLOAT16, {E, K + 1, N});
  EXPECT_EQ(gmm(x, wBad, nullptr, nullptr, nullptr, groups, 0, y), 161002);
  aclTensorList *xl = listOf(x), *wl = listOf(w), *yl = listOf(y);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnGroupedMatmulV5GetWorkspaceSize(xl, wl, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                 groups.get(), nullptr, nullptr, nullptr, 3, 0, 0, 0, nullptr,
                                                 yl, nullptr, nullptr, &ws, &ex),
            0);
  uint64_t macs = 0, written = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    written += t.writeBytes;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(macs, static_cast<uint64_t>(M * K * N));  // E groups of M / E rows (M >= E)
  EXPECT_EQ(written, static_cast<uint64_t>(M * N * 2));
  {  // two rows over four experts (a decode step): at most two experts' weights are streamed
    HostTensorBuf x2(ACL_FLOAT16, {2, K}), y2(ACL_FLOAT16, {2, N});
    aclTensorList *x2l = listOf(x2), *y2l = listOf(y2);
    ASSERT_EQ(aclnnGroupedMatmulV5GetWorkspaceSize(x2l, wl, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                   nullptr, groups.get(), nullptr, nullptr, nullptr, 3, 0, 0,
                                                   0, nullptr, y2l, nullptr, nullptr, &ws, &ex),
              0);
    uint64_t macs2 = 0, read2 = 0;
    for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
      macs2 += t.cubeMacs;
      read2 += t.readBytes;
    }
    aclDestroyAclOpExecutor(ex);
    EXPECT_EQ(macs2, static_cast<uint64_t>(2 * K * N));
    EXPECT_GE(read2, static_cast<uint64_t>(2 * K * N * 2));  // two experts' weights
    EXPECT_LT(read2, static_cast<uint64_t>(3 * K * N * 2));  // not all four
    for (aclTensorList* l : {x2l, y2l}) aclDestroyTensorList(l);
  }
  EXPECT_EQ(aclnnGroupedMatmulV5GetWorkspaceSize(xl, wl, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                 nullptr, nullptr, nullptr, nullptr, 3, 0, 0, 0, nullptr, yl,
                                                 nullptr, nullptr, &ws, &ex),
            161001);  // the group list is required
  for (aclTensorList* l : {xl, wl, yl}) aclDestroyTensorList(l);
}

TEST(GroupedMatmul, AddAccumulatesEachKGroupsProductIntoItsBlockOfY) {
  std::mt19937 g(23);
  const int64_t K = 12, M = 3, N = 4, G = 3;
  HostTensorBuf x(ACL_BF16, {K, M}), w(ACL_BF16, {K, N}), y(ACL_FLOAT, {G * M, N}), groups(ACL_INT64, {G});
  x.fillRandom(g, -1, 1);
  w.fillRandom(g, -1, 1);
  y.fillRandom(g, -1, 1);
  const int64_t ends[G] = {5, 5, 12};  // the second group is empty
  for (int64_t e = 0; e < G; ++e) groups.set(e, ends[e]);
  std::vector<double> y0(static_cast<size_t>(G * M * N));
  for (int64_t i = 0; i < G * M * N; ++i) y0[i] = y.get(i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupedMatmulAddGetWorkspaceSize(x.get(), w.get(), groups.get(), y.get(), true,
                                                           false, 2, ws, ex);
            }),
            0);
  int64_t k0 = 0;
  for (int64_t e = 0; e < G; ++e) {
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = 0; n < N; ++n) {
        double want = y0[(e * M + m) * N + n];
        for (int64_t k = k0; k < ends[e]; ++k) want += x.get(k * M + m) * w.get(k * N + n);
        EXPECT_NEAR(y.get((e * M + m) * N + n), want, 1e-5) << e << "," << m << "," << n;
      }
    }
    k0 = ends[e];
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnGroupedMatmulAddGetWorkspaceSize(x.get(), w.get(), groups.get(), y.get(), false, false, 2,
                                                  &ws, &ex),
            161002);
}
