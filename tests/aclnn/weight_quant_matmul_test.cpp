// aclnnWeightQuantBatchMatmulV2 / V3: y = x @ ((w + offset) * scale) + bias against a reference
// written here (the dequantised weight rounded to x's type as the vector unit stores it): per
// tensor, per channel and per group parameters, int8 and int4-in-int32 weights, fp16 and bf16,
// a transposed weight view, errors and the work charged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v3.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

struct Case {
  aclDataType dt;
  int groupSize;  // 0: per channel (or per tensor when perTensor)
  bool perTensor, int4, transposedWeight, withOffset, withBias;
};

}  // namespace

TEST(WeightQuantBatchMatmul, DequantisesThenMultiplies) {
  std::mt19937 g(2861);
  const int64_t m = 6, k = 96, n = 16;
  const Case cases[] = {
      {ACL_FLOAT16, 0, false, false, false, true, true},  {ACL_BF16, 0, false, false, true, true, true},
      {ACL_FLOAT16, 0, true, false, false, false, false}, {ACL_FLOAT16, 32, false, false, false, true, true},
      {ACL_BF16, 64, false, true, false, true, false},    {ACL_FLOAT16, 0, false, true, false, false, true},
  };
  for (const Case& c : cases) {
    HostTensorBuf x(c.dt, {m, k}), y(c.dt, {m, n});
    x.fillRandom(g, -1, 1);
    std::uniform_int_distribution<int> u8(-128, 127), u4(-8, 7);
    std::vector<int> w(static_cast<size_t>(k * n));
    for (auto& v : w) v = c.int4 ? u4(g) : u8(g);
    // The weight: int8 [k, n] (dense or the transpose of a dense [n, k]), or int4 packed in int32 [k, n / 8].
    std::unique_ptr<HostTensorBuf> weight;
    if (c.int4) {
      weight = std::make_unique<HostTensorBuf>(ACL_INT32, std::vector<int64_t>{k, n / 8});
      std::vector<unsigned char>& b = weight->raw();
      std::fill(b.begin(), b.end(), 0);
      for (size_t i = 0; i < w.size(); ++i)
        b[i / 2] |= static_cast<unsigned char>((w[i] & 0xF) << (4 * (i % 2)));
    } else if (c.transposedWeight) {
      weight = std::make_unique<HostTensorBuf>(ACL_INT8, std::vector<int64_t>{k, n},
                                               std::vector<int64_t>{1, k}, 0);
      for (int64_t i = 0; i < k * n; ++i) weight->set(i, w[static_cast<size_t>(i)]);
    } else {
      weight = std::make_unique<HostTensorBuf>(ACL_INT8, std::vector<int64_t>{k, n});
      for (int64_t i = 0; i < k * n; ++i) weight->set(i, w[static_cast<size_t>(i)]);
    }
    const int64_t groups = c.groupSize > 0 ? (k + c.groupSize - 1) / c.groupSize : 1;
    const std::vector<int64_t> ps = c.perTensor       ? std::vector<int64_t>{1}
                                    : c.groupSize > 0 ? std::vector<int64_t>{groups, n}
                                                      : std::vector<int64_t>{n};
    HostTensorBuf scale(c.dt, ps), offset(c.dt, ps), bias(c.dt == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16, {n});
    scale.fillRandom(g, 0.001, 0.02);
    offset.fillRandom(g, -3, 3);
    bias.fillRandom(g, -1, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(
                    x.get(), weight->get(), scale.get(), c.withOffset ? offset.get() : nullptr, nullptr,
                    nullptr, c.withBias ? bias.get() : nullptr, c.groupSize, 1, y.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double p = 0;
        for (int64_t q = 0; q < k; ++q) {
          const int64_t pi = c.perTensor ? 0 : (c.groupSize > 0 ? (q / c.groupSize) * n : 0) + j;
          const double off = c.withOffset ? offset.get(pi) : 0;
          const double deq =
              roundTo(c.dt, roundTo(c.dt, w[static_cast<size_t>(q * n + j)] + off) * scale.get(pi));
          p += x.get(i * k + q) * deq;
        }
        if (c.withBias) p += bias.get(j);
        EXPECT_NEAR(y.get(i * n + j), p, 2 * tol(c.dt) * std::max(1.0, std::fabs(p)))
            << c.dt << " g" << c.groupSize << " " << i << "," << j;
      }
  }
}

TEST(WeightQuantBatchMatmul, ErrorsAndWork) {
  HostTensorBuf x(ACL_FLOAT16, {4, 64}), w(ACL_INT8, {64, 32}), s(ACL_FLOAT16, {32}), y(ACL_FLOAT16, {4, 32}),
      xf(ACL_FLOAT, {4, 64}), wf(ACL_FLOAT16, {64, 32}), sBad(ACL_FLOAT16, {31}),
      sGroup(ACL_FLOAT16, {2, 32}), yBad(ACL_FLOAT16, {4, 31}), y32(ACL_FLOAT, {4, 32}), qs(ACL_INT64, {32}),
      biasBad(ACL_FLOAT, {32}), sBf(ACL_BF16, {32});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto v2 = [&](const aclTensor* a, const aclTensor* b, const aclTensor* sc, const aclTensor* q,
                const aclTensor* bi, int gs, const aclTensor* o) {
    return aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(a, b, sc, nullptr, q, nullptr, bi, gs, o, &ws, &ex);
  };
  EXPECT_EQ(v2(nullptr, w.get(), s.get(), nullptr, nullptr, 0, y.get()), kParamNull);
  EXPECT_EQ(v2(x.get(), w.get(), nullptr, nullptr, nullptr, 0, y.get()), kParamNull);
  EXPECT_EQ(v2(xf.get(), w.get(), s.get(), nullptr, nullptr, 0, y.get()), kParamInvalid);
  EXPECT_EQ(v2(x.get(), wf.get(), s.get(), nullptr, nullptr, 0, y.get()), kParamInvalid);
  EXPECT_EQ(v2(x.get(), w.get(), sBad.get(), nullptr, nullptr, 0, y.get()), kParamInvalid);
  EXPECT_EQ(v2(x.get(), w.get(), sGroup.get(), nullptr, nullptr, 0, y.get()),
            kParamInvalid);  // groups need g
  EXPECT_EQ(v2(x.get(), w.get(), sGroup.get(), nullptr, nullptr, 32, y.get()), 0);
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(v2(x.get(), w.get(), sGroup.get(), nullptr, nullptr, 48, y.get()),
            kParamInvalid);  // not a multiple of 32
  EXPECT_EQ(v2(x.get(), w.get(), s.get(), nullptr, nullptr, 0, yBad.get()), kParamInvalid);
  EXPECT_EQ(v2(x.get(), w.get(), s.get(), nullptr, nullptr, 0, y32.get()), kParamInvalid);
  EXPECT_EQ(v2(x.get(), w.get(), s.get(), qs.get(), nullptr, 0, y.get()),
            kParamInvalid);  // int8 y: not modelled
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not supported"), std::string::npos);
  EXPECT_EQ(v2(x.get(), w.get(), s.get(), nullptr, biasBad.get(), 0, y.get()),
            kParamInvalid);  // fp32 bias, fp16 x
  EXPECT_EQ(v2(x.get(), w.get(), sBf.get(), nullptr, nullptr, 0, y.get()), kParamInvalid);
  EXPECT_EQ(aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(x.get(), w.get(), s.get(), nullptr, nullptr,
                                                          nullptr, nullptr, 0, 2, y.get(), &ws, &ex),
            kParamInvalid);  // innerPrecise
  // Work: M·N·K MACs at the fp16 rate; the dequantised weight (2 bytes an element) through the vector unit.
  ASSERT_EQ(v2(x.get(), w.get(), s.get(), nullptr, nullptr, 0, y.get()), 0);
  uint64_t macs = 0, vec = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    vec += t.vectorBytes;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(macs, 4u * 32u * 64u);
  EXPECT_EQ(vec, 64u * 32u * 2u);
}
