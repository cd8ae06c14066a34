// aclnnGroupedMatmulFinalizeRouting (V1, V2, V3, WeightNz, WeightNzV2) on host memory against
// the combine written here with exact integer products: W8A8 with per-channel and per-token
// scales, bias, logits, a row index that sends two rows to one token, a shared-expert input at
// an offset and a row in no group; the same through an NZ weight (aclnnTransMatmulWeight);
// W4A8 with packed int4 weights, per-group 64-bit scales and an offset; the refused forms; the
// cube work charged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_v3.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz_v2.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

constexpr int64_t M = 7, K = 1536, N = 32, E = 3, kBatch = 5, kShared = 2, kSharedOffset = 1;
constexpr float kSharedWeight = 0.5f;
const int64_t kCounts[E] = {3, 0, 3};            // expert 1 empty, row 6 in no group
const int64_t kRows[M] = {4, 0, 4, 2, 3, 0, 1};  // rows 0 and 2 both go to token 4

struct Case {
  HostTensorBuf x{ACL_INT8, {M, K}}, pt{ACL_FLOAT, {M}}, logit{ACL_FLOAT, {M}}, rows{ACL_INT64, {M}},
      shared{ACL_BF16, {kShared, N}}, out{ACL_FLOAT, {kBatch, N}};
  explicit Case(std::mt19937& g) {
    x.fillRandom(g, -128, 128);
    pt.fillRandom(g, 0.5, 2);
    logit.fillRandom(g, 0, 1);
    shared.fillRandom(g, -4, 4);
    for (int64_t i = 0; i < M; ++i) rows.set(i, kRows[i]);
    for (int64_t i = 0; i < kBatch * N; ++i) out.set(i, 99);  // overwritten: every row is initialised
  }
  // The reference, given each expert's product of row i and column n (already scaled).
  template <typename Product>
  void expect(const Product& product, const char* what) {
    std::vector<double> want(static_cast<size_t>(kBatch * N), 0.0);
    for (int64_t r = 0; r < kShared; ++r)
      for (int64_t n = 0; n < N; ++n)
        want[(kSharedOffset + r) * N + n] = kSharedWeight * shared.get(r * N + n);
    int64_t start = 0;
    for (int64_t e = 0; e < E; ++e) {
      for (int64_t i = start; i < start + kCounts[e]; ++i)
        for (int64_t n = 0; n < N; ++n) want[kRows[i] * N + n] += logit.get(i) * pt.get(i) * product(e, i, n);
      start += kCounts[e];
    }
    for (int64_t i = 0; i < kBatch * N; ++i)
      EXPECT_NEAR(out.get(i), want[i], 1e-5 * std::max(1.0, std::fabs(want[i]))) << what << " element " << i;
  }
};

int64_t dotInt(HostTensorBuf& x, int64_t i, const std::vector<int64_t>& w, int64_t e, int64_t n, int64_t k0,
               int64_t k1) {
  int64_t acc = 0;
  for (int64_t k = k0; k < k1; ++k)
    acc += static_cast<int64_t>(x.get(i * K + k)) * w[static_cast<size_t>((e * K + k) * N + n)];
  return acc;
}

// The 64-bit quantisation parameter of aclnnTransQuantParam for a scale exact in 19 bits.
int64_t quantParam(float s) {
  uint32_t bits;
  std::memcpy(&bits, &s, 4);
  return static_cast<int64_t>(bits) | (int64_t{1} << 46);
}

int v3(Case& c, HostTensorBuf& w, HostTensorBuf& scale, HostTensorBuf* bias, HostTensorBuf* offset,
       HostTensorBuf& groups, int64_t groupListType) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnGroupedMatmulFinalizeRoutingV3GetWorkspaceSize(
        c.x.get(), w.get(), scale.get(), bias != nullptr ? bias->get() : nullptr,
        offset != nullptr ? offset->get() : nullptr, nullptr, nullptr, c.pt.get(), groups.get(),
        c.shared.get(), c.logit.get(), c.rows.get(), 0, kSharedWeight, kSharedOffset, false, false,
        groupListType, nullptr, c.out.get(), ws, ex);
  });
}

}  // namespace

TEST(GroupedMatmulFinalizeRouting, W8A8CombinesScaledRowsIntoTokens) {
  std::mt19937 g(41);
  Case c(g);
  HostTensorBuf w(ACL_INT8, {E, K, N}), scale(ACL_FLOAT, {E, N}), bias(ACL_BF16, {E, N}),
      groups(ACL_INT64, {E});
  w.fillRandom(g, -128, 128);
  scale.fillRandom(g, 1e-4, 1e-3);
  bias.fillRandom(g, -1, 1);
  for (int64_t e = 0; e < E; ++e) groups.set(e, kCounts[e]);
  std::vector<int64_t> wi(static_cast<size_t>(E * K * N));
  for (size_t i = 0; i < wi.size(); ++i) wi[i] = static_cast<int64_t>(w.get(static_cast<int64_t>(i)));
  ASSERT_EQ(v3(c, w, scale, &bias, nullptr, groups, 1), 0) << aclGetRecentErrMsg();
  c.expect(
      [&](int64_t e, int64_t i, int64_t n) {
        // bias is added after the per-token scale: divide it out of the common factor
        return static_cast<double>(dotInt(c.x, i, wi, e, n, 0, K)) * scale.get(e * N + n) +
               bias.get(e * N + n) / c.pt.get(i);
      },
      "W8A8");
  {  // V1 without bias, cumulative group ends
    for (int64_t e = 0; e < E; ++e) groups.set(e, e == 0 ? 3 : e == 1 ? 3 : 6);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnGroupedMatmulFinalizeRoutingGetWorkspaceSize(
                    c.x.get(), w.get(), scale.get(), nullptr, c.pt.get(), groups.get(), c.shared.get(),
                    c.logit.get(), c.rows.get(), 0, kSharedWeight, kSharedOffset, false, false, 0,
                    c.out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    c.expect(
        [&](int64_t e, int64_t i, int64_t n) {
          return static_cast<double>(dotInt(c.x, i, wi, e, n, 0, K)) * scale.get(e * N + n);
        },
        "V1");
  }
  // The same weight in FRACTAL_NZ (WeightNzV2).
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTransMatmulWeightGetWorkspaceSize(w.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < kBatch * N; ++i) c.out.set(i, 99);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGroupedMatmulFinalizeRoutingWeightNzV2GetWorkspaceSize(
                  c.x.get(), w.get(), scale.get(), nullptr, nullptr, nullptr, nullptr, c.pt.get(),
                  groups.get(), c.shared.get(), c.logit.get(), c.rows.get(), 0, kSharedWeight, kSharedOffset,
                  false, false, 0, nullptr, c.out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  c.expect(
      [&](int64_t e, int64_t i, int64_t n) {
        return static_cast<double>(dotInt(c.x, i, wi, e, n, 0, K)) * scale.get(e * N + n);
      },
      "WeightNzV2");
}

TEST(GroupedMatmulFinalizeRouting, W4A8PerGroupScalesAndOffset) {
  std::mt19937 g(42);
  Case c(g);
  constexpr int64_t G = 3;  // groups of 512 rows of k
  HostTensorBuf w(ACL_INT32, {E, K, N / 8}), scale(ACL_INT64, {E, G, N}), offset(ACL_FLOAT, {E, 1, N}),
      bias(ACL_FLOAT, {E, N}), groups(ACL_INT64, {E});
  std::uniform_int_distribution<int> nibble(-8, 7), power(-9, -5);
  std::vector<int64_t> wi(static_cast<size_t>(E * K * N));
  std::vector<uint8_t> packed(wi.size() / 2);
  for (size_t i = 0; i < wi.size(); ++i) {
    wi[i] = nibble(g);
    packed[i / 2] |= static_cast<uint8_t>((wi[i] & 0xF) << (4 * (i % 2)));
  }
  std::memcpy(w.raw().data(), packed.data(), packed.size());
  std::vector<double> s(static_cast<size_t>(E * G * N));
  for (size_t i = 0; i < s.size(); ++i) {
    s[i] = std::ldexp(1.0, power(g)) * 1.5;  // exact in the parameter's 19 bits
    scale.set(static_cast<int64_t>(i), static_cast<double>(quantParam(static_cast<float>(s[i]))));
  }
  offset.fillRandom(g, -0.01, 0.01);
  bias.fillRandom(g, -1, 1);  // the kernel's auxiliary: not part of the definition
  for (int64_t e = 0; e < E; ++e) groups.set(e, kCounts[e]);
  ASSERT_EQ(v3(c, w, scale, &bias, &offset, groups, 1), 0) << aclGetRecentErrMsg();
  c.expect(
      [&](int64_t e, int64_t i, int64_t n) {
        double v = 0, xs = 0;
        for (int64_t q = 0; q < G; ++q)
          v += static_cast<double>(dotInt(c.x, i, wi, e, n, q * K / G, (q + 1) * K / G)) *
               s[(e * G + q) * N + n];
        for (int64_t k = 0; k < K; ++k) xs += c.x.get(i * K + k);
        return v + offset.get(e * N + n) * xs;
      },
      "W4A8");
}

TEST(GroupedMatmulFinalizeRouting, RefusedArgumentsAndCubeWork) {
  std::mt19937 g(43);
  Case c(g);
  HostTensorBuf w(ACL_INT8, {E, K, N}), scale(ACL_FLOAT, {E, N}), groups(ACL_INT64, {E});
  auto call = [&](const aclTensor* x, const aclTensor* sc, const aclTensor* aq, int64_t dtype, bool transW,
                  int64_t sharedOffset, int64_t listType) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const int st = aclnnGroupedMatmulFinalizeRoutingV3GetWorkspaceSize(
        x, w.get(), sc, nullptr, nullptr, aq, nullptr, c.pt.get(), groups.get(), c.shared.get(),
        c.logit.get(), c.rows.get(), dtype, 1.0f, sharedOffset, false, transW, listType, nullptr, c.out.get(),
        &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  EXPECT_EQ(call(c.x.get(), scale.get(), nullptr, 0, false, 0, 1), 0);
  EXPECT_EQ(call(nullptr, scale.get(), nullptr, 0, false, 0, 1), 161001);
  EXPECT_EQ(call(c.x.get(), nullptr, nullptr, 0, false, 0, 1), 161001);
  EXPECT_EQ(call(c.x.get(), scale.get(), nullptr, 1, false, 0, 1), 161002);      // fp16 out: dtype 0 only
  EXPECT_EQ(call(c.x.get(), scale.get(), nullptr, 0, true, 0, 1), 161002);       // transposed w
  EXPECT_EQ(call(c.x.get(), scale.get(), scale.get(), 0, false, 0, 1), 161002);  // antiquantScale
  EXPECT_EQ(call(c.x.get(), scale.get(), nullptr, 0, false, 4, 1), 161002);      // shared rows past out
  EXPECT_EQ(call(c.x.get(), scale.get(), nullptr, 0, false, 0, 2), 161002);      // groupListType
  HostTensorBuf badScale(ACL_FLOAT, {E, N + 1});
  EXPECT_EQ(call(c.x.get(), badScale.get(), nullptr, 0, false, 0, 1), 161002);
  {  // WeightNzV2 needs an NZ weight
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnGroupedMatmulFinalizeRoutingWeightNzV2GetWorkspaceSize(
                  c.x.get(), w.get(), scale.get(), nullptr, nullptr, nullptr, nullptr, c.pt.get(),
                  groups.get(), c.shared.get(), c.logit.get(), c.rows.get(), 0, 1.0f, 0, false, false, 1,
                  nullptr, c.out.get(), &ws, &ex),
              161002);
  }
  // Cube work: the int8 products of the rows at the int8 rate, one vector pass over the products.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnGroupedMatmulFinalizeRoutingV3GetWorkspaceSize(
                c.x.get(), w.get(), scale.get(), nullptr, nullptr, nullptr, nullptr, c.pt.get(), groups.get(),
                c.shared.get(), c.logit.get(), c.rows.get(), 0, 1.0f, 0, false, false, 1, nullptr,
                c.out.get(), &ws, &ex),
            0);
  const Charged work = chargedBytes(ex);
  // the launch does not see the group sizes: E even groups of ceil(M / E) rows
  const int64_t costRows = E * ((M + E - 1) / E);
  EXPECT_EQ(work.macs, static_cast<uint64_t>(costRows * K * N));
  EXPECT_EQ(work.macScale, 2);
  EXPECT_EQ(work.written, static_cast<uint64_t>(costRows * N * 4));  // fp32 rows added into out
  EXPECT_EQ(work.vector, work.written);
}
