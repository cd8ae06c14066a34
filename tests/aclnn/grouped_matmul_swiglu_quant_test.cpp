// aclnnGroupedMatmulSwigluQuant / WeightNZ on host memory against the README's formula evaluated
// here (exact integer products, C = acc · xScale · weightScale, S = Swish(first half) · second
// half, outputScale = max|S| / 127, output = rint(S / outputScale)): ND weights with fp32 and
// bf16 weightScale, an empty group and a row past the last group left untouched; the same weight
// in FRACTAL_NZ, converted by aclnnTransMatmulWeight and as the 5-D fractal view the public
// example passes; the refused forms; the cube work charged.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_grouped_matmul_swiglu_quant.h"
#include "aclnnop/aclnn_grouped_matmul_swiglu_quant_weight_nz.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

constexpr int64_t M = 6, K = 48, N = 64, E = 3, H = N / 2;
const int64_t kEnds[E] = {2, 2, 5};  // expert 1 empty, row 5 in no group

struct Case {
  HostTensorBuf x{ACL_INT8, {M, K}}, w{ACL_INT8, {E, K, N}}, xScale{ACL_FLOAT, {M}}, groups{ACL_INT64, {E}},
      out{ACL_INT8, {M, H}}, outScale{ACL_FLOAT, {M}};
  HostTensorBuf wScale;
  explicit Case(aclDataType scaleType) : wScale(scaleType, {E, N}) {
    std::mt19937 g(51);
    x.fillRandom(g, -128, 128);
    w.fillRandom(g, -128, 128);
    xScale.fillRandom(g, 0.5, 2);
    wScale.fillRandom(g, 1e-4, 1e-3);
    for (int64_t e = 0; e < E; ++e) groups.set(e, kEnds[e]);
    for (int64_t i = 0; i < M * H; ++i) out.set(i, 77);
    for (int64_t i = 0; i < M; ++i) outScale.set(i, 9);
  }
  void expect(const char* what) {
    int64_t start = 0;
    for (int64_t e = 0; e < E; ++e) {
      for (int64_t i = start; i < kEnds[e]; ++i) {
        auto c = [&](int64_t n) {
          int64_t acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc += static_cast<int64_t>(x.get(i * K + k)) * static_cast<int64_t>(w.get((e * K + k) * N + n));
          return static_cast<double>(acc) * xScale.get(i) * wScale.get(e * N + n);
        };
        std::vector<double> s(H);
        double mx = 0;
        for (int64_t n = 0; n < H; ++n) {
          const double a = c(n);
          s[n] = a / (1 + std::exp(-a)) * c(n + H);
          mx = std::max(mx, std::fabs(s[n]));
        }
        EXPECT_NEAR(outScale.get(i), mx / 127, 1e-5 * mx / 127) << what << " row " << i;
        for (int64_t n = 0; n < H; ++n)  // within one step where fp32 and fp64 round a half differently
          EXPECT_NEAR(out.get(i * H + n), std::nearbyint(s[n] * 127 / mx), 1)
              << what << " row " << i << " col " << n;
      }
      start = std::max(start, kEnds[e]);
    }
    for (int64_t n = 0; n < H; ++n) EXPECT_EQ(out.get(5 * H + n), 77) << what;
    EXPECT_EQ(outScale.get(5), 9) << what;
  }
};

int call(Case& c, const aclTensor* weight, bool nzApi, const aclTensor* bias = nullptr) {
  return run([&](uint64_t* ws, aclOpExecutor** ex) {
    return nzApi ? aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize(
                       c.x.get(), weight, bias, nullptr, c.wScale.get(), c.xScale.get(), c.groups.get(),
                       c.out.get(), c.outScale.get(), nullptr, ws, ex)
                 : aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(
                       c.x.get(), weight, bias, nullptr, c.wScale.get(), c.xScale.get(), c.groups.get(),
                       c.out.get(), c.outScale.get(), nullptr, ws, ex);
  });
}

}  // namespace

TEST(GroupedMatmulSwigluQuant, NdWeightsWithFp32AndBf16Scales) {
  for (aclDataType st : {ACL_FLOAT, ACL_BF16}) {
    Case c(st);
    ASSERT_EQ(call(c, c.w.get(), false), 0) << aclGetRecentErrMsg();
    c.expect(st == ACL_FLOAT ? "fp32 scales" : "bf16 scales");
  }
}

TEST(GroupedMatmulSwigluQuant, NzWeightsConvertedAndAsTheFractalView) {
  {  // [E, K, N] converted in place by aclnnTransMatmulWeight
    Case c(ACL_FLOAT);
    Case ref(ACL_FLOAT);  // the same values (same seed) to compare against after w changes layout
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnTransMatmulWeightGetWorkspaceSize(c.w.get(), ws, ex);
              }),
              0);
    ASSERT_EQ(call(c, c.w.get(), true), 0) << aclGetRecentErrMsg();
    for (int64_t i = 0; i < M * H; ++i) ref.out.set(i, c.out.get(i));
    for (int64_t i = 0; i < M; ++i) ref.outScale.set(i, c.outScale.get(i));
    ref.expect("TransMatmulWeight");
  }
  {  // the 5-D view [E, N / 32, K / 16, 16, 32] over NZ data written here
    Case c(ACL_FLOAT);
    std::vector<int8_t> nz(static_cast<size_t>(E * K * N));
    for (int64_t e = 0; e < E; ++e)
      for (int64_t k = 0; k < K; ++k)
        for (int64_t n = 0; n < N; ++n)
          nz[static_cast<size_t>(e * K * N + ((n / 32) * K + k) * 32 + n % 32)] =
              static_cast<int8_t>(c.w.get((e * K + k) * N + n));
    const std::vector<int64_t> shape = {E, N / 32, K / 16, 16, 32};
    const std::vector<int64_t> strides = denseStrides(shape);
    aclTensor* view = aclCreateTensor(shape.data(), shape.size(), ACL_INT8, strides.data(), 0,
                                      ACL_FORMAT_FRACTAL_NZ, shape.data(), shape.size(), nz.data());
    ASSERT_EQ(call(c, view, true), 0) << aclGetRecentErrMsg();
    c.expect("5-D NZ view");
    aclDestroyTensor(view);
  }
}

TEST(GroupedMatmulSwigluQuant, RefusedArgumentsAndCubeWork) {
  Case c(ACL_FLOAT);
  HostTensorBuf bias(ACL_FLOAT, {E, N});
  EXPECT_EQ(call(c, c.w.get(), false, bias.get()), 161002);  // bias: not supported
  EXPECT_EQ(call(c, c.w.get(), true), 161002);               // WeightNZ with an ND weight
  EXPECT_EQ(call(c, nullptr, false), 161001);
  HostTensorBuf wOdd(ACL_INT8, {E, K, N - 1}), sOdd(ACL_FLOAT, {E, N - 1}), outBad(ACL_INT8, {M, H + 1});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(c.x.get(), wOdd.get(), nullptr, nullptr, sOdd.get(),
                                                          c.xScale.get(), c.groups.get(), c.out.get(),
                                                          c.outScale.get(), nullptr, &ws, &ex),
            161002);  // odd N
  EXPECT_EQ(aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(c.x.get(), c.w.get(), nullptr, nullptr,
                                                          c.wScale.get(), c.xScale.get(), c.groups.get(),
                                                          outBad.get(), c.outScale.get(), nullptr, &ws, &ex),
            161002);
  HostTensorBuf longList(ACL_INT64, {E + 1});
  EXPECT_EQ(aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(c.x.get(), c.w.get(), nullptr, nullptr,
                                                          c.wScale.get(), c.xScale.get(), longList.get(),
                                                          c.out.get(), c.outScale.get(), nullptr, &ws, &ex),
            161002);
  ASSERT_EQ(aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(c.x.get(), c.w.get(), nullptr, nullptr,
                                                          c.wScale.get(), c.xScale.get(), c.groups.get(),
                                                          c.out.get(), c.outScale.get(), nullptr, &ws, &ex),
            0);
  const Charged work = chargedBytes(ex);
  // the launch does not see the group sizes: E even groups of ceil(M / E) rows
  const int64_t costRows = E * ((M + E - 1) / E);
  EXPECT_EQ(work.macs, static_cast<uint64_t>(costRows * K * N));
  EXPECT_EQ(work.macScale, 2);
  EXPECT_EQ(work.vector,
            static_cast<uint64_t>(4 * costRows * N * 4));  // four vector passes over the fp32 products
}
