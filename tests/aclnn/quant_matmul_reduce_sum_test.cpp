// aclnnQuantMatmulReduceSumWeightNz: Σ_b (x1[b] @ x2[b]) · x1Scale[b, m] · x2Scale[n] against a
// reference written here, x2 converted to FRACTAL_NZ by aclnnTransMatmulWeight (k and n not
// multiples of the fractal, so the padding is exercised), errors and the cube work charged.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_quant_matmul_reduce_sum.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

// An int8 [batch, k, n] weight in a buffer sized for its NZ form, converted in place when nz.
struct Weight {
  std::vector<int8_t> values, buf;
  aclTensor* tensor = nullptr;

  Weight(std::mt19937& g, int64_t batch, int64_t k, int64_t n, bool nz) {
    values.resize(static_cast<size_t>(batch * k * n));
    std::uniform_int_distribution<int> u(-128, 127);
    for (auto& v : values) v = static_cast<int8_t>(u(g));
    const int64_t nzSize = batch * ((k + 15) / 16 * 16) * ((n + 31) / 32 * 32);
    buf.assign(static_cast<size_t>(nzSize), 0);
    std::copy(values.begin(), values.end(), buf.begin());
    const std::vector<int64_t> shape = {batch, k, n}, strides = {k * n, n, 1};
    tensor =
        aclCreateTensor(shape.data(), 3, ACL_INT8, strides.data(), 0, ACL_FORMAT_ND, &nzSize, 1, buf.data());
    if (nz) {
      EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnTransMatmulWeightGetWorkspaceSize(tensor, ws, ex);
                }),
                0);
    }
  }
  ~Weight() { aclDestroyTensor(tensor); }
};

}  // namespace

TEST(QuantMatmulReduceSum, SumsTheDequantisedBatchProducts) {
  std::mt19937 g(3301);
  const int64_t batch = 3, m = 7, k = 40, n = 48;
  HostTensorBuf x1(ACL_INT8, {batch, m, k}), s1(ACL_FLOAT, {batch, m}), s2(ACL_BF16, {n}),
      out(ACL_BF16, {m, n});
  x1.fillRandom(g, -128, 128);
  s1.fillRandom(g, 0.001, 0.01);
  s2.fillRandom(g, 0.01, 0.1);
  Weight w(g, batch, k, n, true);
  std::vector<int64_t> d = {0};
  aclIntArray* dims = aclCreateIntArray(d.data(), 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnQuantMatmulReduceSumWeightNzGetWorkspaceSize(
                  x1.get(), w.tensor, s1.get(), s2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, false,
                  false, 0, dims, false, out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  aclDestroyIntArray(dims);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (int64_t b = 0; b < batch; ++b) {
        double acc = 0;
        for (int64_t q = 0; q < k; ++q)
          acc += x1.get((b * m + i) * k + q) * w.values[static_cast<size_t>((b * k + q) * n + j)];
        want += acc * s1.get(b * m + i) * s2.get(j);
      }
      EXPECT_NEAR(out.get(i * n + j), want, 2 * tol(ACL_BF16) * std::max(1.0, std::fabs(want)))
          << i << "," << j;
    }
  }
}

TEST(QuantMatmulReduceSum, ErrorsAndWork) {
  std::mt19937 g(3302);
  const int64_t batch = 2, m = 4, k = 32, n = 64;
  HostTensorBuf x1(ACL_INT8, {batch, m, k}), s1(ACL_FLOAT, {batch, m}), s2(ACL_BF16, {n}),
      out(ACL_BF16, {m, n}), s1Bad(ACL_FLOAT, {m}), s2f(ACL_FLOAT, {n}), outH(ACL_FLOAT16, {m, n}),
      outBad(ACL_BF16, {batch, m, n}), x1Bad(ACL_INT8, {batch, m, k + 1}), bias(ACL_INT32, {n});
  Weight nz(g, batch, k, n, true), nd(g, batch, k, n, false);
  std::vector<int64_t> d0 = {0}, d1 = {1};
  aclIntArray* dims = aclCreateIntArray(d0.data(), 1);
  aclIntArray* dimsBad = aclCreateIntArray(d1.data(), 1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* a, const aclTensor* w, const aclTensor* sa, const aclTensor* sb,
                  const aclTensor* bi, const aclIntArray* dm, bool keep, aclTensor* o) {
    return aclnnQuantMatmulReduceSumWeightNzGetWorkspaceSize(a, w, sa, sb, nullptr, nullptr, nullptr, nullptr,
                                                             bi, false, false, 0, dm, keep, o, &ws, &ex);
  };
  EXPECT_EQ(call(nullptr, nz.tensor, s1.get(), s2.get(), nullptr, dims, false, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), nz.tensor, nullptr, s2.get(), nullptr, dims, false, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), nz.tensor, s1.get(), s2.get(), nullptr, nullptr, false, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), nd.tensor, s1.get(), s2.get(), nullptr, dims, false, out.get()),
            kParamInvalid);  // x2 not in NZ
  EXPECT_EQ(call(x1.get(), nz.tensor, s1Bad.get(), s2.get(), nullptr, dims, false, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), nz.tensor, s1.get(), s2f.get(), nullptr, dims, false, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), nz.tensor, s1.get(), s2.get(), nullptr, dims, false, outH.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), nz.tensor, s1.get(), s2.get(), nullptr, dims, false, outBad.get()), kParamInvalid);
  EXPECT_EQ(call(x1Bad.get(), nz.tensor, s1.get(), s2.get(), nullptr, dims, false, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), nz.tensor, s1.get(), s2.get(), bias.get(), dims, false, out.get()),
            kParamInvalid);  // bias is reserved
  EXPECT_EQ(call(x1.get(), nz.tensor, s1.get(), s2.get(), nullptr, dimsBad, false, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), nz.tensor, s1.get(), s2.get(), nullptr, dims, true, out.get()), kParamInvalid);
  // Work: batch · m · n · k int8 MACs, charged at half the fp16 cycles (the cube's int8 rate).
  ASSERT_EQ(call(x1.get(), nz.tensor, s1.get(), s2.get(), nullptr, dims, false, out.get()), 0);
  uint64_t macs = 0, tiles = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    ++tiles;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_NEAR(static_cast<double>(macs), batch * m * n * k / 2.0,
              static_cast<double>(tiles));  // halves round up
  aclDestroyIntArray(dims);
  aclDestroyIntArray(dimsBad);
}
