// aclnnQuantMatmulV3 / V4 / WeightNz against a reference written here: uint64 quantisation
// parameters (fp16 and requantised int8 outputs, offsets, saturation), fp32/bf16 scales with a
// per-token scale (fp16 and bf16 outputs, int32 and float biases, a per-batch bias), batch
// broadcast, transposed operands, NZ weights (plain and transposed), errors and the work charged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_quant_matmul_v3.h"
#include "aclnnop/aclnn_quant_matmul_v4.h"
#include "aclnnop/aclnn_quant_matmul_weight_nz.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

// The 64-bit parameter of aclnnTransQuantParam for scale s and integer offset o: the fp32 bits
// in the low word, o as 9 bits from bit 37.
uint64_t quantParam(float s, int o) {
  uint32_t bits = 0;
  std::memcpy(&bits, &s, 4);
  return static_cast<uint64_t>(bits) | (static_cast<uint64_t>(o & 0x1FF) << 37);
}

// x1 [batch, m, k] (or [m, k] when batch is 0) and x2 [k, n] int8 with the exact products.
struct Operands {
  int64_t batch, m, k, n;
  std::vector<int> a, w;  // a[(b * m + i) * k + q], w[q * n + j]
  int64_t product(int64_t b, int64_t i, int64_t j) const {
    int64_t s = 0;
    for (int64_t q = 0; q < k; ++q)
      s += static_cast<int64_t>(a[static_cast<size_t>((b * m + i) * k + q)]) *
           w[static_cast<size_t>(q * n + j)];
    return s;
  }
};

Operands randomOperands(std::mt19937& g, int64_t batch, int64_t m, int64_t k, int64_t n) {
  Operands o{batch, m, k, n, {}, {}};
  std::uniform_int_distribution<int> u(-128, 127);
  o.a.resize(static_cast<size_t>(std::max<int64_t>(batch, 1) * m * k));
  o.w.resize(static_cast<size_t>(k * n));
  for (auto& v : o.a) v = u(g);
  for (auto& v : o.w) v = u(g);
  return o;
}

}  // namespace

TEST(QuantMatmulV3, QuantParamToFp16AndRequantisedInt8) {
  std::mt19937 g(4101);
  const int64_t batch = 2, m = 6, k = 37, n = 20;
  const Operands o = randomOperands(g, batch, m, k, n);
  // x1 [batch, m, k]; x2 read transposed from a dense [n, k] (transposeX2), broadcast over the batch.
  HostTensorBuf x1(ACL_INT8, {batch, m, k}), x2(ACL_INT8, {n, k}), bias(ACL_INT32, {n}),
      scale(ACL_UINT64, {n}), offset(ACL_FLOAT, {n}), out16(ACL_FLOAT16, {batch, m, n}),
      out8(ACL_INT8, {batch, m, n});
  for (size_t i = 0; i < o.a.size(); ++i) x1.set(static_cast<int64_t>(i), o.a[i]);
  for (int64_t q = 0; q < k; ++q)
    for (int64_t j = 0; j < n; ++j) x2.set(j * k + q, o.w[static_cast<size_t>(q * n + j)]);
  bias.fillRandom(g, -500, 500);
  offset.fillRandom(g, -20, 20);
  std::vector<float> s(static_cast<size_t>(n));
  std::vector<int> po(static_cast<size_t>(n));
  std::uniform_real_distribution<float> us(0.0005f, 0.004f);
  std::uniform_int_distribution<int> uo(-30, 30);
  for (int64_t j = 0; j < n; ++j) {
    s[static_cast<size_t>(j)] = us(g);
    po[static_cast<size_t>(j)] = uo(g);
    setU64(scale, j, quantParam(s[static_cast<size_t>(j)], po[static_cast<size_t>(j)]));
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnQuantMatmulV3GetWorkspaceSize(x1.get(), x2.get(), scale.get(), nullptr, bias.get(),
                                                        false, true, out16.get(), ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  // int8 out twice: the offset tensor, then (none given) the parameters' own offsets.
  for (const bool offsetTensor : {true, false}) {
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnQuantMatmulV3GetWorkspaceSize(x1.get(), x2.get(), scale.get(),
                                                          offsetTensor ? offset.get() : nullptr, bias.get(),
                                                          false, true, out8.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    int saturated = 0;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          const int64_t flat = (b * m + i) * n + j;
          const double v = static_cast<double>(o.product(b, i, j) + static_cast<int64_t>(bias.get(j))) *
                           fixpipeScale(s[static_cast<size_t>(j)]);
          if (offsetTensor) expectNear(out16.get(flat), v, ACL_FLOAT16, "fp16 out");
          const double off = offsetTensor ? offset.get(j) : po[static_cast<size_t>(j)];
          const double q = std::clamp(std::nearbyint(v + off), -128.0, 127.0);
          saturated += std::fabs(q) == 128.0 || q == 127.0;
          EXPECT_EQ(out8.get(flat), q) << offsetTensor << " " << flat << " " << v + off;
        }
    EXPECT_GT(saturated, 0);  // the scales are chosen so that some results saturate
  }
}

TEST(QuantMatmulV4, PerTokenScalesAndFloatBiases) {
  std::mt19937 g(4102);
  const int64_t batch = 3, m = 5, k = 24, n = 16;
  const Operands o = randomOperands(g, batch, m, k, n);
  HostTensorBuf x1t(ACL_INT8, {batch, k, m}), x2(ACL_INT8, {k, n}), pt(ACL_FLOAT, {m}), s32(ACL_FLOAT, {n}),
      s16(ACL_BF16, {n});
  for (int64_t b = 0; b < batch; ++b)  // x1 stored [batch, k, m], read transposed (transposeX1)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t q = 0; q < k; ++q)
        x1t.set((b * k + q) * m + i, o.a[static_cast<size_t>((b * m + i) * k + q)]);
  for (size_t i = 0; i < o.w.size(); ++i) x2.set(static_cast<int64_t>(i), o.w[i]);
  pt.fillRandom(g, 0.001, 0.01);
  s32.fillRandom(g, 0.01, 0.1);
  s16.fillRandom(g, 0.01, 0.1);
  struct Case {
    aclDataType out, scale, bias;  // ACL_DT_UNDEFINED: no bias
    bool perToken, perBatchBias;
  };
  const Case cases[] = {{ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT16, true, false},
                        {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, true, true},
                        {ACL_BF16, ACL_BF16, ACL_BF16, false, false},
                        {ACL_BF16, ACL_FLOAT, ACL_FLOAT, true, true},
                        {ACL_BF16, ACL_FLOAT, ACL_DT_UNDEFINED, true, false}};
  for (const Case& c : cases) {
    HostTensorBuf out(c.out, {batch, m, n});
    HostTensorBuf bias(c.bias == ACL_DT_UNDEFINED ? ACL_FLOAT : c.bias,
                       c.perBatchBias ? std::vector<int64_t>{batch, 1, n} : std::vector<int64_t>{n});
    bias.fillRandom(g, c.bias == ACL_INT32 ? -300 : -2, c.bias == ACL_INT32 ? 300 : 2);
    HostTensorBuf& scale = c.scale == ACL_BF16 ? s16 : s32;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnQuantMatmulV4GetWorkspaceSize(
                    x1t.get(), x2.get(), scale.get(), nullptr, c.perToken ? pt.get() : nullptr,
                    c.bias == ACL_DT_UNDEFINED ? nullptr : bias.get(), true, false, out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          const double bv = c.bias == ACL_DT_UNDEFINED ? 0 : bias.get((c.perBatchBias ? b * n : 0) + j);
          const double acc = static_cast<double>(o.product(b, i, j));
          double v = (c.bias == ACL_INT32 ? acc + bv : acc) * scale.get(j) * (c.perToken ? pt.get(i) : 1.0);
          if (c.bias != ACL_INT32) v += bv;
          expectNear(out.get((b * m + i) * n + j), v, c.out, "V4 case");
        }
  }
}

TEST(QuantMatmulWeightNz, ReadsTheNzWeightPlainAndTransposed) {
  std::mt19937 g(4103);
  const int64_t m = 9, k = 40, n = 36;  // k and n off the 16 x 32 fractal
  const Operands o = randomOperands(g, 0, m, k, n);
  HostTensorBuf x1(ACL_INT8, {m, k}), s1(ACL_FLOAT, {m}), s2(ACL_FLOAT, {n}), bias(ACL_INT32, {n}),
      out(ACL_BF16, {m, n});
  for (size_t i = 0; i < o.a.size(); ++i) x1.set(static_cast<int64_t>(i), o.a[i]);
  s1.fillRandom(g, 0.001, 0.01);
  s2.fillRandom(g, 0.01, 0.1);
  bias.fillRandom(g, -300, 300);
  for (const bool transposed : {false, true}) {
    // x2 [k, n], or [n, k] read with transposeX2, in a buffer sized for its NZ form.
    const int64_t rows = transposed ? n : k, cols = transposed ? k : n;
    std::vector<int8_t> buf(static_cast<size_t>((rows + 15) / 16 * 16 * ((cols + 31) / 32 * 32)), 0);
    for (int64_t q = 0; q < k; ++q)
      for (int64_t j = 0; j < n; ++j)
        buf[static_cast<size_t>(transposed ? j * k + q : q * n + j)] =
            static_cast<int8_t>(o.w[static_cast<size_t>(q * n + j)]);
    const std::vector<int64_t> shape = {rows, cols}, strides = {cols, 1};
    const auto storage = static_cast<int64_t>(buf.size());
    aclTensor* x2 =
        aclCreateTensor(shape.data(), 2, ACL_INT8, strides.data(), 0, ACL_FORMAT_ND, &storage, 1, buf.data());
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnTransMatmulWeightGetWorkspaceSize(x2, ws, ex);
              }),
              0);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnQuantMatmulWeightNzGetWorkspaceSize(x1.get(), x2, s1.get(), s2.get(), nullptr,
                                                                nullptr, nullptr, nullptr, bias.get(), false,
                                                                transposed, 0, out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    aclDestroyTensor(x2);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const double v = static_cast<double>(o.product(0, i, j) + static_cast<int64_t>(bias.get(j))) *
                         s2.get(j) * s1.get(i);
        expectNear(out.get(i * n + j), v, ACL_BF16, transposed ? "transposed" : "plain");
      }
  }
}

TEST(QuantMatmulV3, ErrorsAndWork) {
  HostTensorBuf x1(ACL_INT8, {4, 32}), x2(ACL_INT8, {32, 16}), sP(ACL_UINT64, {16}), sF(ACL_FLOAT, {16}),
      sBad(ACL_FLOAT, {15}), pt(ACL_FLOAT, {4}), ptBad(ACL_FLOAT, {5}), off(ACL_FLOAT, {16}),
      b32(ACL_INT32, {16}), bBf(ACL_BF16, {16}), bBad(ACL_INT32, {17}), out16(ACL_FLOAT16, {4, 16}),
      outBf(ACL_BF16, {4, 16}), out8(ACL_INT8, {4, 16}), out32(ACL_INT32, {4, 16}),
      outBad(ACL_FLOAT16, {4, 17}), x1h(ACL_FLOAT16, {4, 32}), x1k(ACL_INT8, {4, 31});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto v4 = [&](const aclTensor* a, const aclTensor* s, const aclTensor* o, const aclTensor* p,
                const aclTensor* b, const aclTensor* y) {
    const int st = aclnnQuantMatmulV4GetWorkspaceSize(a, x2.get(), s, o, p, b, false, false, y, &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  EXPECT_EQ(v4(x1.get(), sP.get(), nullptr, nullptr, b32.get(), out16.get()), 0);
  EXPECT_EQ(v4(x1.get(), sP.get(), off.get(), nullptr, b32.get(), out8.get()), 0);
  EXPECT_EQ(v4(x1.get(), sF.get(), nullptr, pt.get(), nullptr, out16.get()), 0);
  EXPECT_EQ(v4(nullptr, sP.get(), nullptr, nullptr, nullptr, out16.get()), kParamNull);
  EXPECT_EQ(v4(x1.get(), nullptr, nullptr, nullptr, nullptr, out16.get()), kParamNull);
  EXPECT_EQ(v4(x1.get(), sP.get(), nullptr, nullptr, nullptr, nullptr), kParamNull);
  EXPECT_EQ(v4(x1h.get(), sP.get(), nullptr, nullptr, nullptr, out16.get()), kParamInvalid);
  EXPECT_EQ(v4(x1k.get(), sP.get(), nullptr, nullptr, nullptr, out16.get()), kParamInvalid);  // k differs
  EXPECT_EQ(v4(x1.get(), sP.get(), nullptr, nullptr, nullptr, outBad.get()), kParamInvalid);
  EXPECT_EQ(v4(x1.get(), sBad.get(), nullptr, pt.get(), nullptr, out16.get()), kParamInvalid);
  EXPECT_EQ(v4(x1.get(), sF.get(), nullptr, nullptr, nullptr, out16.get()),
            kParamInvalid);  // fp32 scale to fp16 needs the per-token scale
  EXPECT_EQ(v4(x1.get(), sF.get(), nullptr, ptBad.get(), nullptr, out16.get()), kParamInvalid);
  EXPECT_EQ(v4(x1.get(), sP.get(), off.get(), nullptr, nullptr, out16.get()),
            kParamInvalid);  // offset: int8 only
  EXPECT_EQ(v4(x1.get(), sF.get(), nullptr, nullptr, nullptr, out8.get()), kParamInvalid);
  EXPECT_EQ(v4(x1.get(), sP.get(), nullptr, nullptr, bBf.get(), out16.get()), kParamInvalid);
  EXPECT_EQ(v4(x1.get(), sF.get(), nullptr, nullptr, bBad.get(), outBf.get()), kParamInvalid);
  EXPECT_EQ(v4(x1.get(), sF.get(), nullptr, nullptr, nullptr, out32.get()), kParamInvalid);  // not modelled
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not supported"), std::string::npos);
  HostTensorBuf x1e(ACL_INT8, {0, 32}), oute(ACL_FLOAT16, {0, 16});
  EXPECT_EQ(v4(x1e.get(), sP.get(), nullptr, nullptr, nullptr, oute.get()),
            kParamInvalid);  // empty: the doc's 161002
  // WeightNz takes only NZ weights, and no yScale / groupSize here.
  EXPECT_EQ(aclnnQuantMatmulWeightNzGetWorkspaceSize(x1.get(), x2.get(), nullptr, sP.get(), nullptr, nullptr,
                                                     nullptr, nullptr, nullptr, false, false, 0, out16.get(),
                                                     &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnQuantMatmulWeightNzGetWorkspaceSize(x1.get(), x2.get(), nullptr, nullptr, nullptr, nullptr,
                                                     nullptr, nullptr, nullptr, false, false, 0, out16.get(),
                                                     &ws, &ex),
            kParamNull);
  // Work: M·N·K int8 MACs at half the fp16 cycles, the scale read once.
  ASSERT_EQ(aclnnQuantMatmulV3GetWorkspaceSize(x1.get(), x2.get(), sP.get(), nullptr, b32.get(), false, false,
                                               out16.get(), &ws, &ex),
            0);
  uint64_t macs = 0, tiles = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    ++tiles;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_NEAR(static_cast<double>(macs), 4 * 16 * 32 / 2.0, static_cast<double>(tiles));
}
