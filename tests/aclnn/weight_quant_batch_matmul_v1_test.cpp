// aclnnWeightQuantBatchMatmul (the deprecated first version): both dequantisation paths against a
// reference written here (m > 64: the addOffset / mulScale chain, each step rounded to fp16; m <= 64:
// (x2 + deqOffset) · deqScale with the scale taken from aclnnTransQuantParam's bits), a transposed
// x2 with [n, 1] parameters, the public example's values, errors and the work charged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

}  // namespace

TEST(WeightQuantBatchMatmulV1, VectorPathAboveSixtyFourRows) {
  std::mt19937 g(733);
  const int64_t m = 80, k = 48, n = 24;
  const float aScale = 0.5f, aOffset = 1.5f;
  for (const bool transposed : {false, true}) {
    HostTensorBuf x1(ACL_FLOAT16, {m, k}), out(ACL_FLOAT16, {m, n}), bias(ACL_FLOAT, {n});
    // x2 stored [k, n], or [n, k] and read transposed; the parameters per n as x2 is stored.
    HostTensorBuf x2(ACL_INT8, transposed ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n});
    const std::vector<int64_t> ps = transposed ? std::vector<int64_t>{n, 1} : std::vector<int64_t>{1, n};
    HostTensorBuf add(ACL_FLOAT16, ps), mul(ACL_FLOAT16, ps);
    x1.fillRandom(g, -1, 1);
    x2.fillRandom(g, -128, 127);
    add.fillRandom(g, -2, 2);
    mul.fillRandom(g, 0.01, 0.1);
    bias.fillRandom(g, -1, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnWeightQuantBatchMatmulGetWorkspaceSize(
                    x1.get(), x2.get(), nullptr, nullptr, nullptr, add.get(), mul.get(), bias.get(), false,
                    transposed, aScale, aOffset, out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double p = roundF16(static_cast<float>(bias.get(j)));
        for (int64_t q = 0; q < k; ++q) {
          const double w = x2.get(transposed ? j * k + q : q * n + j);
          double v = roundF16((static_cast<float>(w) + aOffset) * aScale);
          v = roundF16(roundF16(v + add.get(j)) * mul.get(j));
          p += x1.get(i * k + q) * v;
        }
        EXPECT_NEAR(out.get(i * n + j), p, 2 * tol(ACL_FLOAT16) * std::max(1.0, std::fabs(p)))
            << "transposed " << transposed << " " << i << "," << j;
      }
    }
  }
}

TEST(WeightQuantBatchMatmulV1, FixpipePathUpToSixtyFourRows) {
  std::mt19937 g(734);
  const int64_t m = 64, k = 40, n = 16;
  HostTensorBuf x1(ACL_FLOAT16, {m, k}), x2(ACL_INT8, {k, n}), diag(ACL_INT8, {32, 32}), dOff(ACL_INT32, {n}),
      dScale(ACL_UINT64, {n}), bias(ACL_FLOAT, {n}), out(ACL_FLOAT16, {m, n});
  x1.fillRandom(g, -1, 1);
  x2.fillRandom(g, -128, 127);
  dOff.fillRandom(g, -20, 20);
  bias.fillRandom(g, -1, 1);
  for (int64_t i = 0; i < 32; ++i)
    for (int64_t j = 0; j < 32; ++j) diag.set(i * 32 + j, i == j ? 1 : 0);
  std::uniform_real_distribution<float> u(0.001f, 0.01f);
  std::vector<float> scales(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    float& sj = scales[static_cast<size_t>(j)];
    sj = u(g);
    uint32_t bits = 0;
    std::memcpy(&bits, &sj, 4);
    setU64(dScale, j, bits);  // aclnnTransQuantParam's parameter: the fp32 bits in the low word
  }
  // addOffset / mulScale are ignored on this path (the library does not read them for m <= 64).
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnWeightQuantBatchMatmulGetWorkspaceSize(x1.get(), x2.get(), diag.get(), dOff.get(),
                                                                 dScale.get(), nullptr, nullptr, bias.get(),
                                                                 false, false, 1.0f, 0.0f, out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double p = roundF16(static_cast<float>(bias.get(j)));
      for (int64_t q = 0; q < k; ++q) {
        const double w = static_cast<float>(x2.get(q * n + j) + dOff.get(j)) *
                         fixpipeScale(scales[static_cast<size_t>(j)]);
        p += x1.get(i * k + q) * roundF16(w);
      }
      EXPECT_NEAR(out.get(i * n + j), p, 2 * tol(ACL_FLOAT16) * std::max(1.0, std::fabs(p))) << i << "," << j;
    }
  }
}

TEST(WeightQuantBatchMatmulV1, PublicExampleValues) {
  // ops-nn weight_quant_batch_matmul example: x1 ones [128, 4], x2 ones [4, 4], addOffset {1, 1, 1, 0},
  // mulScale {2, 2, 1, 1}: every row is 4 · (1 + addOffset) · mulScale = {16, 16, 8, 4}.
  HostTensorBuf x1(ACL_FLOAT16, {128, 4}), x2(ACL_INT8, {4, 4}), add(ACL_FLOAT16, {4}), mul(ACL_FLOAT16, {4}),
      out(ACL_FLOAT16, {128, 4});
  for (int64_t i = 0; i < 512; ++i) x1.set(i, 1);
  for (int64_t i = 0; i < 16; ++i) x2.set(i, 1);
  const double addV[] = {1, 1, 1, 0}, mulV[] = {2, 2, 1, 1}, want[] = {16, 16, 8, 4};
  for (int64_t j = 0; j < 4; ++j) {
    add.set(j, addV[j]);
    mul.set(j, mulV[j]);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnWeightQuantBatchMatmulGetWorkspaceSize(x1.get(), x2.get(), nullptr, nullptr,
                                                                 nullptr, add.get(), mul.get(), nullptr,
                                                                 false, false, 1.0f, 0.0f, out.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 512; ++i) EXPECT_EQ(out.get(i), want[i % 4]) << i;
}

TEST(WeightQuantBatchMatmulV1, EmptyKGivesTheBias) {
  // k = 0: the library fills out with zeros plus the bias cast to fp16.
  HostTensorBuf x1(ACL_FLOAT16, {70, 0}), x2(ACL_INT8, {0, 5}), bias(ACL_FLOAT, {5}),
      out(ACL_FLOAT16, {70, 5});
  const double b[] = {0.1, -2.5, 3.0, 1e-3, 7.77};
  for (int64_t j = 0; j < 5; ++j) bias.set(j, b[j]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnWeightQuantBatchMatmulGetWorkspaceSize(x1.get(), x2.get(), nullptr, nullptr,
                                                                 nullptr, nullptr, nullptr, bias.get(), false,
                                                                 false, 1.0f, 0.0f, out.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t i = 0; i < 70 * 5; ++i) EXPECT_EQ(out.get(i), roundF16(static_cast<float>(b[i % 5]))) << i;
}

TEST(WeightQuantBatchMatmulV1, ErrorsAndWork) {
  HostTensorBuf x1(ACL_FLOAT16, {80, 32}), x1s(ACL_FLOAT16, {8, 32}), x2(ACL_INT8, {32, 16}),
      out(ACL_FLOAT16, {80, 16}), outS(ACL_FLOAT16, {8, 16}), x1f(ACL_FLOAT, {80, 32}),
      x2h(ACL_FLOAT16, {32, 16}), out32(ACL_FLOAT, {80, 16}), outBad(ACL_FLOAT16, {80, 15}),
      x1r3(ACL_FLOAT16, {1, 80, 32}), addBad(ACL_FLOAT16, {15}), add32(ACL_FLOAT, {16}),
      diag(ACL_INT8, {32, 32}), diagBad(ACL_INT8, {16, 16}), dOff(ACL_INT32, {16}), dScale(ACL_UINT64, {16}),
      dScaleF(ACL_FLOAT, {16}), biasH(ACL_FLOAT16, {16});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* a, const aclTensor* b, const aclTensor* d, const aclTensor* o,
                  const aclTensor* s, const aclTensor* add, const aclTensor* bias, aclTensor* y) {
    return aclnnWeightQuantBatchMatmulGetWorkspaceSize(a, b, d, o, s, add, nullptr, bias, false, false, 1.0f,
                                                       0.0f, y, &ws, &ex);
  };
  EXPECT_EQ(call(nullptr, x2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), kParamNull);
  // m <= 64 needs the fixpipe's inputs.
  EXPECT_EQ(call(x1s.get(), x2.get(), nullptr, dOff.get(), dScale.get(), nullptr, nullptr, outS.get()),
            kParamNull);
  EXPECT_EQ(call(x1s.get(), x2.get(), diagBad.get(), dOff.get(), dScale.get(), nullptr, nullptr, outS.get()),
            kParamInvalid);
  EXPECT_EQ(call(x1s.get(), x2.get(), diag.get(), dOff.get(), dScaleF.get(), nullptr, nullptr, outS.get()),
            kParamInvalid);
  EXPECT_EQ(call(x1f.get(), x2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2h.get(), nullptr, nullptr, nullptr, nullptr, nullptr, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, out32.get()),
            kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, outBad.get()),
            kParamInvalid);
  EXPECT_EQ(call(x1r3.get(), x2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, out.get()),
            kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, nullptr, addBad.get(), nullptr, out.get()),
            kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, nullptr, add32.get(), nullptr, out.get()),
            kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, nullptr, nullptr, biasH.get(), out.get()),
            kParamInvalid);  // bias must be fp32
  // Work: M·N·K MACs at the fp16 rate, the dequantised weight (2 bytes an element) through the vector unit.
  ASSERT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, nullptr, nullptr, nullptr, out.get()), 0);
  uint64_t macs = 0, vec = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    vec += t.vectorBytes;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(macs, 80u * 16u * 32u);
  EXPECT_EQ(vec, 32u * 16u * 2u);
}
