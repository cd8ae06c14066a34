// aclnnMatmul on host memory: shapes (1-D, batched, broadcast), strided operands, every
// cubeMathType against double-precision references with the documented input rounding.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_matmul.h"
#include "runtime/aclnn/base/error.h"

using namespace aclnn_test;

namespace {

double roundSignificant(double x, int bits) {
  if (x == 0 || !std::isfinite(x)) return x;
  int e;
  std::frexp(x, &e);
  const double ulp = std::ldexp(1.0, e - bits);
  return std::nearbyint(x / ulp) * ulp;
}

enum class In { kAsIs, kF16, kHf32 };

double roundInput(In in, double v) {
  switch (in) {
    case In::kF16:
      return roundF16(v);
    case In::kHf32:
      return roundSignificant(v, 12);
    default:
      return v;
  }
}

int matmul(HostTensorBuf& a, HostTensorBuf& b, HostTensorBuf& o, int8_t mode) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  int st = aclnnMatmulGetWorkspaceSize(a.get(), b.get(), o.get(), mode, &ws, &ex);
  if (st == 0) runOnHost(ex);
  return st;
}

// Reference for 2-D self [M,K] and mat2 [K,N]; checks every element of out [M,N].
// `resultRound`: element type the cube result is rounded to before out's type.
void check2d(HostTensorBuf& a, HostTensorBuf& b, HostTensorBuf& o, In in, aclDataType resultRound,
             double relTol) {
  const int64_t M = a.shape()[0], K = a.shape()[1], N = b.shape()[1];
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      double s = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        const double x = roundInput(in, a.get(i * K + k)) * roundInput(in, b.get(k * N + j));
        s += x;
        mag += std::fabs(x);
      }
      const double expect = roundTo(o.dtype(), roundTo(resultRound, s));
      // Allowed: fp32 accumulation error plus one unit of the final rounding.
      const double unit = resultRound == ACL_FLOAT16 ? 0x1p-10 : resultRound == ACL_BF16 ? 0x1p-7 : 0x1p-23;
      const double tol = relTol * mag + unit * std::fabs(expect);
      ASSERT_NEAR(o.get(i * N + j), expect, tol) << "i " << i << " j " << j;
    }
  }
}

}  // namespace

TEST(Matmul, Fp32KeepDtypeMatchesDoubleReference) {
  std::mt19937 g(1);
  HostTensorBuf a(ACL_FLOAT, {37, 70}), b(ACL_FLOAT, {70, 45}), o(ACL_FLOAT, {37, 45});
  a.fillRandom(g, -1, 1);
  b.fillRandom(g, -1, 1);
  for (int8_t mode : {0, 4}) {
    ASSERT_EQ(matmul(a, b, o, mode), 0);
    check2d(a, b, o, In::kAsIs, ACL_FLOAT, 70 * 0x1p-23);
  }
}

TEST(Matmul, Fp16AndBf16AccumulateInFp32AndRoundOnce) {
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    std::mt19937 g(2);
    HostTensorBuf a(dt, {20, 64}), b(dt, {64, 33}), o(dt, {20, 33});
    a.fillRandom(g, -2, 2);
    b.fillRandom(g, -2, 2);
    for (int8_t mode : {0, 1, 3, 4}) {  // none of these changes fp16/bf16 numerics
      ASSERT_EQ(matmul(a, b, o, mode), 0) << dt << " mode " << int(mode);
      check2d(a, b, o, In::kAsIs, dt, 64 * 0x1p-23);
    }
    // fp16 inputs with an fp32 out: the cube result is fp16, then widened. bf16 does not
    // combine with fp32 on Atlas A2 (aclnnMatmul.md constraints), not even for out.
    HostTensorBuf o32(ACL_FLOAT, {20, 33});
    if (dt == ACL_FLOAT16) {
      ASSERT_EQ(matmul(a, b, o32, 0), 0);
      check2d(a, b, o32, In::kAsIs, dt, 64 * 0x1p-23);
    } else {
      EXPECT_EQ(matmul(a, b, o32, 0), 161002);
    }
  }
}

TEST(Matmul, Fp32DownPrecisionModesRoundTheInputs) {
  std::mt19937 g(3);
  HostTensorBuf a(ACL_FLOAT, {16, 96}), b(ACL_FLOAT, {96, 24}), o(ACL_FLOAT, {16, 24}),
      keep(ACL_FLOAT, {16, 24});
  a.fillRandom(g, -1, 1);
  b.fillRandom(g, -1, 1);
  ASSERT_EQ(matmul(a, b, keep, 0), 0);
  // ALLOW_FP32_DOWN_PRECISION and USE_HF32: HF32 inputs (11 stored mantissa bits), fp32 out.
  for (int8_t mode : {1, 3}) {
    ASSERT_EQ(matmul(a, b, o, mode), 0);
    check2d(a, b, o, In::kHf32, ACL_FLOAT, 96 * 0x1p-23);
    double maxDiff = 0;
    for (int64_t i = 0; i < o.numel(); ++i) maxDiff = std::max(maxDiff, std::fabs(o.get(i) - keep.get(i)));
    EXPECT_GT(maxDiff, 1e-5) << "HF32 should visibly lose precision against fp32, mode " << int(mode);
  }
  // USE_FP16: fp16 inputs and an fp16 result, widened to the fp32 out.
  ASSERT_EQ(matmul(a, b, o, 2), 0);
  check2d(a, b, o, In::kF16, ACL_FLOAT16, 96 * 0x1p-23);
  for (int64_t i = 0; i < o.numel(); ++i) ASSERT_EQ(o.get(i), roundF16(o.get(i))) << "not an fp16 value";
}

TEST(Matmul, Bf16WithUseFp16ComputesInFp16) {
  HostTensorBuf a(ACL_BF16, {1, 1}), b(ACL_BF16, {1, 1}), o(ACL_BF16, {1, 1});
  a.set(0, 1.0 + 0x1p-7);  // exact in bf16 and in fp16
  b.set(0, 3.0);
  ASSERT_EQ(matmul(a, b, o, 2), 0);
  // fp16 product 3 + 3*2^-7 = 3.0234375 is exact in fp16; the bf16 out rounds it (a tie) to even.
  EXPECT_EQ(o.get(0), roundBf16(roundF16(3.0 * (1.0 + 0x1p-7))));
  HostTensorBuf big(ACL_BF16, {1, 1}), ob(ACL_BF16, {1, 1});
  big.set(0, 1e5);  // beyond fp16's range: USE_FP16 overflows to infinity
  b.set(0, 1.0);
  ASSERT_EQ(matmul(big, b, ob, 2), 0);
  EXPECT_TRUE(std::isinf(ob.get(0)));
  ASSERT_EQ(matmul(big, b, ob, 0), 0);
  EXPECT_EQ(ob.get(0), roundBf16(1e5));
}

TEST(Matmul, VectorAndBatchShapes) {
  std::mt19937 g(4);
  auto ref = [](HostTensorBuf& a, int64_t aOff, int64_t aSm, int64_t aSk, HostTensorBuf& b, int64_t bOff,
                int64_t bSk, int64_t bSn, int64_t i, int64_t j, int64_t K) {
    double s = 0;
    for (int64_t k = 0; k < K; ++k) s += a.get(aOff + i * aSm + k * aSk) * b.get(bOff + k * bSk + j * bSn);
    return s;
  };
  const double tol = 1e-5;
  {  // 1-D x 1-D: a dot product into a 0-d out
    HostTensorBuf a(ACL_FLOAT, {50}), b(ACL_FLOAT, {50}), o(ACL_FLOAT, {});
    a.fillRandom(g, -1, 1);
    b.fillRandom(g, -1, 1);
    ASSERT_EQ(matmul(a, b, o, 1), 0);  // cubeMathType has no effect on a dot product
    EXPECT_NEAR(o.get(0), ref(a, 0, 0, 1, b, 0, 1, 0, 0, 0, 50), 1e-5);
  }
  {  // 2-D x 1-D -> [M]
    HostTensorBuf a(ACL_FLOAT, {3, 5}), b(ACL_FLOAT, {5}), o(ACL_FLOAT, {3});
    a.fillRandom(g, -1, 1);
    b.fillRandom(g, -1, 1);
    ASSERT_EQ(matmul(a, b, o, 0), 0);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(o.get(i), ref(a, 0, 5, 1, b, 0, 1, 0, i, 0, 5), tol);
  }
  {  // 1-D x 3-D -> [B, N]
    HostTensorBuf a(ACL_FLOAT, {4}), b(ACL_FLOAT, {2, 4, 3}), o(ACL_FLOAT, {2, 3});
    a.fillRandom(g, -1, 1);
    b.fillRandom(g, -1, 1);
    ASSERT_EQ(matmul(a, b, o, 0), 0);
    for (int bt = 0; bt < 2; ++bt) {
      for (int j = 0; j < 3; ++j)
        EXPECT_NEAR(o.get(bt * 3 + j), ref(a, 0, 0, 1, b, bt * 12, 3, 1, 0, j, 4), tol);
    }
  }
  {  // [2,1,M,K] x [3,K,N] -> [2,3,M,N]: both operands broadcast along a batch dimension
    const int64_t M = 5, K = 7, N = 6;
    HostTensorBuf a(ACL_FLOAT, {2, 1, M, K}), b(ACL_FLOAT, {3, K, N}), o(ACL_FLOAT, {2, 3, M, N});
    a.fillRandom(g, -1, 1);
    b.fillRandom(g, -1, 1);
    ASSERT_EQ(matmul(a, b, o, 0), 0);
    for (int p = 0; p < 2; ++p) {
      for (int q = 0; q < 3; ++q) {
        for (int i = 0; i < M; ++i) {
          for (int j = 0; j < N; ++j) {
            EXPECT_NEAR(o.get(((p * 3 + q) * M + i) * N + j),
                        ref(a, p * M * K, K, 1, b, q * K * N, N, 1, i, j, K), tol);
          }
        }
      }
    }
  }
}

TEST(Matmul, StridedOperandsAndOutput) {
  // self^T stored as K x M, mat2 with an offset and padded rows, out into a wider buffer.
  const int64_t M = 6, K = 9, N = 5;
  std::mt19937 g(5);
  HostTensorBuf a(ACL_FLOAT, {M, K}, {1, M}, 0);
  HostTensorBuf b(ACL_FLOAT, {K, N}, {8, 1}, 3);
  HostTensorBuf o(ACL_FLOAT, {M, N}, {1, M + 2}, 1);  // column-major out
  a.fillRandom(g, -1, 1);
  b.fillRandom(g, -1, 1);
  ASSERT_EQ(matmul(a, b, o, 0), 0);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += a.get(i * K + k) * b.get(k * N + j);
      EXPECT_NEAR(o.get(i * N + j), s, 1e-5);
    }
  }
}

TEST(Matmul, ArgumentErrors) {
  HostTensorBuf a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {3, 4}), o(ACL_FLOAT, {2, 4});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(nullptr, b.get(), o.get(), 0, &ws, &ex), 161001);
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), nullptr, o.get(), 0, &ws, &ex), 161001);
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b.get(), nullptr, 0, &ws, &ex), 161001);
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b.get(), o.get(), 5, &ws, &ex), 161002);
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("cubeMathType"), std::string::npos);
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b.get(), o.get(), -1, &ws, &ex), 161002);
  HostTensorBuf bk(ACL_FLOAT, {4, 4}), ow(ACL_FLOAT, {4, 2});
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), bk.get(), o.get(), 0, &ws, &ex), 161002);
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("K dimensions differ"), std::string::npos);
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b.get(), ow.get(), 0, &ws, &ex), 161002);
  HostTensorBuf b16(ACL_BF16, {3, 4}), h16(ACL_FLOAT16, {2, 3});
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(h16.get(), b16.get(), o.get(), 0, &ws, &ex), 161002);  // bf16 x fp16
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b16.get(), o.get(), 0, &ws, &ex), 161002);    // fp32 x bf16
  HostTensorBuf i32(ACL_INT32, {2, 3});
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(i32.get(), b.get(), o.get(), 0, &ws, &ex), 161002);
  HostTensorBuf ba(ACL_FLOAT, {2, 2, 3}), bb(ACL_FLOAT, {3, 3, 4}), bo(ACL_FLOAT, {3, 2, 4});
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(ba.get(), bb.get(), bo.get(), 0, &ws, &ex), 161002);
  HostTensorBuf s0(ACL_FLOAT, {});
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(s0.get(), b.get(), o.get(), 0, &ws, &ex), 161002);
}

TEST(Matmul, LargeFp32MatmulIsFast) {
  const int64_t n = 1024;
  HostTensorBuf a(ACL_FLOAT, {n, n}), b(ACL_FLOAT, {n, n}), o(ACL_FLOAT, {n, n});
  std::mt19937 g(6);
  a.fillRandom(g, -1, 1);
  b.fillRandom(g, -1, 1);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(matmul(a, b, o, 0), 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 5.0) << "1024^3 fp32 matmul took " << s << " s";
  for (int64_t i : {int64_t{0}, int64_t{517}, n - 1}) {
    for (int64_t j : {int64_t{0}, int64_t{3}, n - 1}) {
      double ref = 0, mag = 0;
      for (int64_t k = 0; k < n; ++k) {
        ref += a.get(i * n + k) * b.get(k * n + j);
        mag += std::fabs(a.get(i * n + k) * b.get(k * n + j));
      }
      EXPECT_NEAR(o.get(i * n + j), ref, mag * n * 0x1p-24);
    }
  }
}
