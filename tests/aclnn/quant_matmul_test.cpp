// aclnnQuantMatmul / aclnnQuantMatmulV2 / aclnnBatchMatmulQuant / aclnnFusedQuantMatmul(WeightNz) /
// aclnnQuantMatmulV5: int8 products accumulated exactly, plus int32 bias, times the scale (a float, or the
// uint64 of aclnnTransQuantParam), rounded to fp16; against a reference written here; adjX1/adjX2 transposes,
// batch broadcast, errors, the int8 cube work.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_batchmatmul_quant.h"
#include "aclnnop/aclnn_fused_quant_matmul.h"
#include "aclnnop/aclnn_fused_quant_matmul_weight_nz.h"
#include "aclnnop/aclnn_quant_matmul.h"
#include "aclnnop/aclnn_quant_matmul_v5.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_trans_quant_param.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

void fillInt(HostTensorBuf& t, std::mt19937& g, int lo, int hi) {
  std::uniform_int_distribution<int> u(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, u(g));
}

// A uint64 tensor over its own host memory (the test buffers do not hold uint64).
class U64Tensor {
 public:
  explicit U64Tensor(std::vector<uint64_t> v) : v_(std::move(v)) {
    const int64_t n = static_cast<int64_t>(v_.size()), stride = 1;
    t_ = aclCreateTensor(&n, 1, ACL_UINT64, &stride, 0, ACL_FORMAT_ND, &n, 1, v_.data());
  }
  ~U64Tensor() { aclDestroyTensor(t_); }
  aclTensor* get() const { return t_; }

 private:
  std::vector<uint64_t> v_;
  aclTensor* t_ = nullptr;
};

}  // namespace

TEST(QuantMatmul, V2ScalesPerColumnWithBiasAndTransposes) {
  std::mt19937 g(2851);
  const int64_t B = 2, M = 5, K = 70, N = 19;
  for (bool adj1 : {false, true}) {
    for (bool adj2 : {false, true}) {
      HostTensorBuf x1(ACL_INT8, adj1 ? std::vector<int64_t>{B, K, M} : std::vector<int64_t>{B, M, K});
      HostTensorBuf x2(ACL_INT8,
                       adj2 ? std::vector<int64_t>{1, N, K} : std::vector<int64_t>{1, K, N});  // broadcast
      HostTensorBuf bias(ACL_INT32, {N}), out(ACL_FLOAT16, {B, M, N});
      fillInt(x1, g, -128, 127);
      fillInt(x2, g, -128, 127);
      fillInt(bias, g, -5000, 5000);
      std::vector<float> scales(static_cast<size_t>(N));
      std::uniform_real_distribution<float> us(1e-4f, 1e-3f);
      for (auto& s : scales) s = us(g);
      uint64_t* packed = nullptr;
      uint64_t packedN = 0;
      ASSERT_EQ(aclnnTransQuantParam(scales.data(), N, nullptr, 0, &packed, &packedN), 0);
      U64Tensor deq(std::vector<uint64_t>(packed, packed + packedN));
      std::free(packed);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnQuantMatmulV2GetWorkspaceSize(x1.get(), x2.get(), bias.get(), deq.get(), adj1,
                                                            adj2, out.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t b = 0; b < B; ++b)
        for (int64_t m = 0; m < M; ++m)
          for (int64_t n = 0; n < N; ++n) {
            int64_t acc = static_cast<int64_t>(bias.get(n));
            for (int64_t k = 0; k < K; ++k) {
              const double a = adj1 ? x1.get((b * K + k) * M + m) : x1.get((b * M + m) * K + k);
              const double w = adj2 ? x2.get(n * K + k) : x2.get(k * N + n);
              acc += static_cast<int64_t>(a * w);
            }
            // The scale as the fixpipe reads it: 13 low mantissa bits cleared.
            uint32_t bits;
            std::memcpy(&bits, &scales[static_cast<size_t>(n)], 4);
            bits &= 0xFFFFE000u;
            float s;
            std::memcpy(&s, &bits, 4);
            const double want = roundF16(static_cast<double>(static_cast<float>(acc) * s));
            EXPECT_EQ(out.get((b * M + m) * N + n), want) << adj1 << adj2 << " " << b << "," << m << "," << n;
          }
    }
  }
}

TEST(QuantMatmul, V1TakesAFloatScale) {
  // The public example's values: ones, K = 2, bias 1, scale 1 -> 3.
  HostTensorBuf x1(ACL_INT8, {5, 2}), x2(ACL_INT8, {2, 3}), bias(ACL_INT32, {3}), out(ACL_FLOAT16, {5, 3});
  for (int64_t i = 0; i < 10; ++i) x1.set(i, 1);
  for (int64_t i = 0; i < 6; ++i) x2.set(i, i % 2 == 0 ? 1 : -3);
  for (int64_t i = 0; i < 3; ++i) bias.set(i, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnQuantMatmulGetWorkspaceSize(x1.get(), x2.get(), bias.get(), 0.5f, out.get(), ws,
                                                      ex);
            }),
            0)
      << aclGetRecentErrMsg();
  // Column n sums x2[0][n] + x2[1][n]: (1 + -3), (-3 + 1), (1 + -3) -> -2, plus bias 1, times 0.5.
  for (int64_t i = 0; i < 15; ++i) EXPECT_EQ(out.get(i), -0.5) << i;
  // Without bias.
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnQuantMatmulGetWorkspaceSize(x1.get(), x2.get(), nullptr, 2.0f, out.get(), ws, ex);
            }),
            0);
  for (int64_t i = 0; i < 15; ++i) EXPECT_EQ(out.get(i), -4.0) << i;
}

TEST(QuantMatmul, ErrorsAndWork) {
  HostTensorBuf x1(ACL_INT8, {4, 32}), x2(ACL_INT8, {32, 20}), bias(ACL_INT32, {20}),
      out(ACL_FLOAT16, {4, 20}), f16(ACL_FLOAT16, {4, 32}), out32(ACL_FLOAT, {4, 20}),
      biasBad(ACL_INT32, {19}), x13(ACL_INT8, {1, 4, 32}), outBad(ACL_FLOAT16, {4, 21}), x1d(ACL_INT8, {32});
  U64Tensor deq(std::vector<uint64_t>(32, 0)), deqBad(std::vector<uint64_t>(7, 0));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto v2 = [&](const aclTensor* a, const aclTensor* b, const aclTensor* bi, const aclTensor* d,
                aclTensor* o) {
    return aclnnQuantMatmulV2GetWorkspaceSize(a, b, bi, d, false, false, o, &ws, &ex);
  };
  EXPECT_EQ(v2(nullptr, x2.get(), bias.get(), deq.get(), out.get()), kParamNull);
  EXPECT_EQ(v2(x1.get(), x2.get(), bias.get(), nullptr, out.get()), kParamNull);
  EXPECT_EQ(v2(f16.get(), x2.get(), bias.get(), deq.get(), out.get()), kParamInvalid);
  EXPECT_EQ(v2(x1.get(), x2.get(), bias.get(), deq.get(), out32.get()), kParamInvalid);
  EXPECT_EQ(v2(x1.get(), x2.get(), biasBad.get(), deq.get(), out.get()), kParamInvalid);
  EXPECT_EQ(v2(x1.get(), x2.get(), bias.get(), deqBad.get(), out.get()),
            kParamInvalid);  // not 1, n or align(n, 16)
  EXPECT_EQ(v2(x1.get(), x2.get(), bias.get(), deq.get(), outBad.get()), kParamInvalid);
  EXPECT_EQ(v2(x1d.get(), x2.get(), bias.get(), deq.get(), out.get()), kParamInvalid);
  EXPECT_EQ(aclnnQuantMatmulGetWorkspaceSize(x13.get(), x2.get(), bias.get(), 1.0f, out.get(), &ws, &ex),
            kParamInvalid);  // V1: no broadcast of ranks
  // Work: M·N·K int8 MACs at twice the fp16 rate, i.e. half as many fp16 MAC slots.
  ASSERT_EQ(v2(x1.get(), x2.get(), bias.get(), deq.get(), out.get()), 0);
  uint64_t macs = 0, read = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    read += t.readBytes;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(macs, 4u * 20u * 32u / 2u);
  EXPECT_GE(read, 4u * 32u + 32u * 20u + 20u * 4u + 20u * 8u);
}

TEST(BatchMatmulQuant, QuantisesTheFp16Product) {
  std::mt19937 g(2871);
  const int64_t m = 7, k = 24, n = 5;
  for (bool t1 : {false, true}) {
    for (bool t2 : {false, true}) {
      HostTensorBuf x1(ACL_FLOAT16, t1 ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k});
      HostTensorBuf x2(ACL_FLOAT16, t2 ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n});
      HostTensorBuf bias(ACL_FLOAT16, {n}), out(ACL_INT8, {m, n});
      x1.fillRandom(g, -2, 2);
      x2.fillRandom(g, -2, 2);
      bias.fillRandom(g, -3, 3);
      std::vector<float> scales = {3.0f, 0.5f, 12.0f, 1.25f, 40.0f}, offsets = {0, 3, -7, 100, -2};
      uint64_t* packed = nullptr;
      uint64_t packedN = 0;
      ASSERT_EQ(aclnnTransQuantParam(scales.data(), n, offsets.data(), n, &packed, &packedN), 0);
      U64Tensor param(std::vector<uint64_t>(packed, packed + packedN));
      std::free(packed);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnBatchMatmulQuantGetWorkspaceSize(x1.get(), x2.get(), param.get(), bias.get(),
                                                               t1, t2, out.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      int saturated = 0;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double p = 0;
          for (int64_t q = 0; q < k; ++q)
            p += (t1 ? x1.get(q * m + i) : x1.get(i * k + q)) * (t2 ? x2.get(j * k + q) : x2.get(q * n + j));
          const double v =
              (p + bias.get(j)) * scales[static_cast<size_t>(j)] + offsets[static_cast<size_t>(j)];
          const double want = std::fmin(127, std::fmax(-128, std::nearbyint(v)));
          saturated += std::fabs(v) > 128;
          // fp32 accumulation may move a value lying near a rounding boundary by one step.
          EXPECT_NEAR(out.get(i * n + j), want, std::fabs(std::fabs(v - std::trunc(v)) - 0.5) < 1e-3 ? 1 : 0)
              << i << "," << j;
        }
      EXPECT_GT(saturated, 0);  // the scale of 40 drives some values past int8
    }
  }
}

TEST(BatchMatmulQuant, Errors) {
  HostTensorBuf x1(ACL_FLOAT16, {4, 8}), x2(ACL_FLOAT16, {8, 3}), out(ACL_INT8, {4, 3}),
      x1f(ACL_FLOAT, {4, 8}), out16(ACL_FLOAT16, {4, 3}), bias32(ACL_FLOAT, {3}), x2bad(ACL_FLOAT16, {7, 3});
  U64Tensor p1(std::vector<uint64_t>(1, 0)), p16(std::vector<uint64_t>(16, 0)),
      p5(std::vector<uint64_t>(5, 0));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* a, const aclTensor* b, const aclTensor* p, const aclTensor* bi,
                  aclTensor* o) {
    const int st = aclnnBatchMatmulQuantGetWorkspaceSize(a, b, p, bi, false, false, o, &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  EXPECT_EQ(call(x1.get(), x2.get(), p1.get(), nullptr, out.get()), 0);
  EXPECT_EQ(call(x1.get(), x2.get(), p16.get(), nullptr, out.get()), 0);
  EXPECT_EQ(call(x1.get(), x2.get(), nullptr, nullptr, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), x2.get(), p5.get(), nullptr, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1f.get(), x2.get(), p1.get(), nullptr, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), p1.get(), nullptr, out16.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2.get(), p1.get(), bias32.get(), out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), x2bad.get(), p1.get(), nullptr, out.get()), kParamInvalid);
}

TEST(FusedQuantMatmul, ScalesAddsBiasAndAppliesGelu) {
  std::mt19937 g(2891);
  const int64_t m = 4, k = 40, n = 32;
  for (bool nz : {false, true}) {
    for (aclDataType bt : {ACL_INT32, ACL_FLOAT, ACL_DT_UNDEFINED}) {
      for (const char* op : {"gelu_tanh", "gelu_erf"}) {
        HostTensorBuf x1(ACL_INT8, {m, k}), s1(ACL_FLOAT, {m}), s2(ACL_FLOAT, {n}), out(ACL_BF16, {m, n});
        HostTensorBuf bias(bt == ACL_DT_UNDEFINED ? ACL_FLOAT : bt, {n});
        fillInt(x1, g, -128, 127);
        s1.fillRandom(g, 0.001, 0.01);
        s2.fillRandom(g, 0.01, 0.1);
        fillInt(bias, g, -300, 300);
        // x2 [k, n] in a buffer sized for its NZ form (k aligned to 16, n to 32).
        std::vector<int8_t> w(static_cast<size_t>(k * n)), buf(static_cast<size_t>(48 * 32), 0);
        std::uniform_int_distribution<int> u(-128, 127);
        for (auto& v : w) v = static_cast<int8_t>(u(g));
        std::copy(w.begin(), w.end(), buf.begin());
        const std::vector<int64_t> shape = {k, n}, strides = {n, 1};
        const int64_t storage = static_cast<int64_t>(buf.size());
        aclTensor* x2 = aclCreateTensor(shape.data(), 2, ACL_INT8, strides.data(), 0, ACL_FORMAT_ND, &storage,
                                        1, buf.data());
        if (nz) {
          ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                      return aclnnTransMatmulWeightGetWorkspaceSize(x2, ws, ex);
                    }),
                    0);
        }
        const aclTensor* b = bt == ACL_DT_UNDEFINED ? nullptr : bias.get();
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return nz ? aclnnFusedQuantMatmulWeightNzGetWorkspaceSize(
                                    x1.get(), x2, s1.get(), s2.get(), nullptr, nullptr, nullptr, nullptr, b,
                                    nullptr, op, 0, out.get(), ws, ex)
                              : aclnnFusedQuantMatmulGetWorkspaceSize(x1.get(), x2, s1.get(), s2.get(),
                                                                      nullptr, nullptr, nullptr, nullptr, b,
                                                                      nullptr, op, 0, out.get(), ws, ex);
                  }),
                  0)
            << aclGetRecentErrMsg();
        aclDestroyTensor(x2);
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double acc = 0;
            for (int64_t q = 0; q < k; ++q) acc += x1.get(i * k + q) * w[static_cast<size_t>(q * n + j)];
            const double sc = s1.get(i) * s2.get(j);
            double v =
                bt == ACL_INT32 ? (acc + bias.get(j)) * sc : acc * sc + (b != nullptr ? bias.get(j) : 0);
            v = std::string(op) == "gelu_tanh"
                    ? 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)))
                    : 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
            EXPECT_NEAR(out.get(i * n + j), v, 2 * tol(ACL_BF16) * std::max(1.0, std::fabs(v)))
                << nz << bt << op << " " << i << "," << j;
          }
      }
    }
  }
}

TEST(FusedQuantMatmul, Errors) {
  HostTensorBuf x1(ACL_INT8, {4, 32}), x2(ACL_INT8, {32, 16}), s1(ACL_FLOAT, {4}), s2(ACL_FLOAT, {16}),
      out(ACL_FLOAT16, {4, 16}), s1Bad(ACL_FLOAT, {5}), x1f(ACL_FLOAT16, {4, 32}), out32(ACL_FLOAT, {4, 16}),
      bias3(ACL_INT32, {1, 1, 16});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* a, const aclTensor* sa, const aclTensor* bi, const aclTensor* x3,
                  const char* op, int64_t gs, aclTensor* o) {
    const int st = aclnnFusedQuantMatmulGetWorkspaceSize(a, x2.get(), sa, s2.get(), nullptr, nullptr, nullptr,
                                                         nullptr, bi, x3, op, gs, o, &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    return st;
  };
  EXPECT_EQ(call(x1.get(), s1.get(), nullptr, nullptr, "gelu_erf", 0, out.get()), 0);
  EXPECT_EQ(call(x1.get(), s1.get(), nullptr, nullptr, nullptr, 0, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), nullptr, nullptr, nullptr, "gelu_erf", 0, out.get()), kParamNull);
  EXPECT_EQ(call(x1.get(), s1.get(), nullptr, nullptr, "relu", 0, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), s1Bad.get(), nullptr, nullptr, "gelu_erf", 0, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1f.get(), s1.get(), nullptr, nullptr, "gelu_erf", 0, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), s1.get(), nullptr, nullptr, "gelu_erf", 0, out32.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), s1.get(), bias3.get(), nullptr, "gelu_erf", 0, out.get()), kParamInvalid);
  EXPECT_EQ(call(x1.get(), s1.get(), nullptr, x1.get(), "gelu_erf", 0, out.get()),
            kParamInvalid);  // x3 reserved
  EXPECT_EQ(call(x1.get(), s1.get(), nullptr, nullptr, "gelu_erf", 32, out.get()), kParamInvalid);
  // The WeightNz form refuses an ND x2.
  EXPECT_EQ(aclnnFusedQuantMatmulWeightNzGetWorkspaceSize(x1.get(), x2.get(), s1.get(), s2.get(), nullptr,
                                                          nullptr, nullptr, nullptr, nullptr, nullptr,
                                                          "gelu_tanh", 0, out.get(), &ws, &ex),
            kParamInvalid);
}

TEST(QuantMatmulV5, PerChannelPerBlockAndPerGroup) {
  std::mt19937 g(2901);
  const int64_t m = 3, k = 256, n = 64;
  HostTensorBuf x1(ACL_INT8, {m, k}), x2(ACL_INT8, {n, k}), out(ACL_BF16, {m, n});  // x2 read transposed
  fillInt(x1, g, -128, 127);
  fillInt(x2, g, -128, 127);
  auto prod = [&](int64_t i, int64_t j, int64_t k0, int64_t k1) {
    double acc = 0;
    for (int64_t q = k0; q < k1; ++q) acc += x1.get(i * k + q) * x2.get(j * k + q);
    return acc;
  };
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  {  // per channel with per-token scale and a float bias
    HostTensorBuf s1(ACL_FLOAT, {m}), s2(ACL_FLOAT, {n}), bias(ACL_FLOAT, {n});
    s1.fillRandom(g, 0.001, 0.01);
    s2.fillRandom(g, 0.001, 0.01);
    bias.fillRandom(g, -1, 1);
    ASSERT_EQ(run([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnQuantMatmulV5GetWorkspaceSize(x1.get(), x2.get(), s1.get(), s2.get(), nullptr,
                                                          nullptr, nullptr, nullptr, bias.get(), false, true,
                                                          0, out.get(), w, e);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const double want = prod(i, j, 0, k) * s2.get(j) * s1.get(i) + bias.get(j);
        EXPECT_NEAR(out.get(i * n + j), want, 2 * tol(ACL_BF16) * std::max(1.0, std::fabs(want)))
            << i << "," << j;
      }
  }
  {  // per block: gsK = 128, gsN = 32
    const int64_t gk = 128, gn = 32;
    HostTensorBuf s1(ACL_FLOAT, {m, k / gk}), s2(ACL_FLOAT, {n / gn, k / gk}), bias(ACL_FLOAT, {n});
    s1.fillRandom(g, 0.001, 0.01);
    s2.fillRandom(g, 0.001, 0.01);
    bias.fillRandom(g, -1, 1);
    const int64_t gs = gk | (gn << 16) | (int64_t{1} << 32);
    ASSERT_EQ(run([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnQuantMatmulV5GetWorkspaceSize(x1.get(), x2.get(), s1.get(), s2.get(), nullptr,
                                                          nullptr, nullptr, nullptr, bias.get(), false, true,
                                                          gs, out.get(), w, e);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double want = bias.get(j);
        for (int64_t l = 0; l < k / gk; ++l)
          want +=
              prod(i, j, l * gk, (l + 1) * gk) * s1.get(i * (k / gk) + l) * s2.get((j / gn) * (k / gk) + l);
        EXPECT_NEAR(out.get(i * n + j), want, 2 * tol(ACL_BF16) * std::max(1.0, std::fabs(want)))
            << i << "," << j;
      }
    // A per-block x1Scale of the wrong shape.
    HostTensorBuf s1Bad(ACL_FLOAT, {m, 1});
    EXPECT_EQ(aclnnQuantMatmulV5GetWorkspaceSize(x1.get(), x2.get(), s1Bad.get(), s2.get(), nullptr, nullptr,
                                                 nullptr, nullptr, bias.get(), false, true, gs, out.get(),
                                                 &ws, &ex),
              kParamInvalid);
  }
  {  // per group: int4 weight packed in int32 [k, n / 8], uint64 scales (fp32 bits), yOffset, x1Scale [m, 1]
    const int64_t gk = 64;
    HostTensorBuf w(ACL_INT32, {k, n / 8}), s1(ACL_FLOAT, {m, 1}), yOff(ACL_FLOAT, {n}),
        o16(ACL_FLOAT16, {m, n});
    std::uniform_int_distribution<int> u4(-8, 7);
    std::vector<int> wv(static_cast<size_t>(k * n));
    std::fill(w.raw().begin(), w.raw().end(), 0);
    for (size_t i = 0; i < wv.size(); ++i) {
      wv[i] = u4(g);
      w.raw()[i / 2] |= static_cast<unsigned char>((wv[i] & 0xF) << (4 * (i % 2)));
    }
    std::vector<float> sc(static_cast<size_t>((k / gk) * n));
    std::uniform_real_distribution<float> us(0.01f, 0.1f);
    std::vector<uint64_t> packedScale(sc.size());
    for (size_t i = 0; i < sc.size(); ++i) {
      sc[i] = us(g);
      uint32_t bits;
      std::memcpy(&bits, &sc[i], 4);
      bits &= 0xFFFFE000u;  // as the parameter format keeps it
      std::memcpy(&sc[i], &bits, 4);
      packedScale[i] = bits;
    }
    const int64_t dims[] = {k / gk, n}, strides[] = {n, 1};
    aclTensor* s2 =
        aclCreateTensor(dims, 2, ACL_UINT64, strides, 0, ACL_FORMAT_ND, dims, 2, packedScale.data());
    s1.fillRandom(g, 0.5, 2);
    yOff.fillRandom(g, -5, 5);
    ASSERT_EQ(run([&](uint64_t* wsz, aclOpExecutor** e) {
                return aclnnQuantMatmulV5GetWorkspaceSize(x1.get(), w.get(), s1.get(), s2, nullptr, nullptr,
                                                          nullptr, yOff.get(), nullptr, false, false, gk,
                                                          o16.get(), wsz, e);
              }),
              0)
        << aclGetRecentErrMsg();
    aclDestroyTensor(s2);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double p = 0;
        for (int64_t q = 0; q < k; ++q)
          p += x1.get(i * k + q) * wv[static_cast<size_t>(q * n + j)] *
               sc[static_cast<size_t>((q / gk) * n + j)];
        const double want = (p + yOff.get(j)) * s1.get(i);
        EXPECT_NEAR(o16.get(i * n + j), want, 2 * tol(ACL_FLOAT16) * std::max(1.0, std::fabs(want)))
            << i << "," << j;
      }
  }
  // Outputs and modes not modelled.
  HostTensorBuf s2(ACL_FLOAT, {n}), o8(ACL_INT8, {m, n});
  EXPECT_EQ(aclnnQuantMatmulV5GetWorkspaceSize(x1.get(), x2.get(), nullptr, s2.get(), nullptr, nullptr,
                                               nullptr, nullptr, nullptr, false, true, 0, o8.get(), &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(
      aclnnQuantMatmulV5GetWorkspaceSize(nullptr, x2.get(), nullptr, s2.get(), nullptr, nullptr, nullptr,
                                         nullptr, nullptr, false, true, 0, out.get(), &ws, &ex),
      kParamNull);
}
