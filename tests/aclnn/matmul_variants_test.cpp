// The matmul variants on the matmul engine (aclnnMv, aclnnAddmv, aclnnGemm, aclnnFusedMatmulGelu), run on
// host memory against double-precision references written here: fp32/fp16/bf16, broadcast addends, transposed
// and strided operands, their error codes and the cube work they charge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_addmv.h"
#include "aclnnop/aclnn_fused_matmul_gelu.h"
#include "aclnnop/aclnn_fused_patch_mlp.h"
#include "aclnnop/aclnn_gemm.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "runtime/aclnn/ops/registry.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;
ScalarPtr scalar(double v) { return ScalarPtr(makeScalar(ACL_FLOAT, v), aclDestroyScalar); }

// Cube MACs and MTE bytes the executor phase 1 built charges; destroys it.
struct Work {
  uint64_t macs = 0, read = 0, written = 0, vector = 0;
};
template <typename Phase1>
Work work(const Phase1& p1) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  Work w;
  EXPECT_EQ(p1(&ws, &ex), 0) << aclGetRecentErrMsg();
  if (ex == nullptr) return w;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    w.macs += t.cubeMacs;
    w.read += t.readBytes;
    w.written += t.writeBytes;
    w.vector += t.vectorBytes;
  }
  aclDestroyAclOpExecutor(ex);
  return w;
}

// Tolerance of a K-term dot product stored in dt (products rounded once more before an epilogue).
double dotTol(aclDataType dt, double ref) { return 4 * tol(dt) * std::max(1.0, std::fabs(ref)); }

}  // namespace

TEST(MatmulVariants, MvMultipliesMatrixByVector) {
  std::mt19937 g(21);
  const int64_t n = 9, m = 13;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf a(dt, {n, m}), v(dt, {m}), out(dt, {n});
    a.fillRandom(g, -1, 1);
    v.fillRandom(g, -1, 1);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnMvGetWorkspaceSize(a.get(), v.get(), out.get(), 0, ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < n; ++i) {
      double p = 0;
      for (int64_t k = 0; k < m; ++k) p += a.get(i * m + k) * v.get(k);
      EXPECT_NEAR(out.get(i), p, dotTol(dt, p)) << i;
    }
  }
  // The public example: [[1,2,3],[4,5,6]] @ [7,8,9] = [50, 122].
  HostTensorBuf a(ACL_FLOAT, {2, 3}), v(ACL_FLOAT, {3}), out(ACL_FLOAT, {2});
  for (int i = 0; i < 6; ++i) a.set(i, i + 1);
  for (int i = 0; i < 3; ++i) v.set(i, 7 + i);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMvGetWorkspaceSize(a.get(), v.get(), out.get(), 1, ws, ex);
            }),
            0);
  EXPECT_EQ(out.get(0), 50);
  EXPECT_EQ(out.get(1), 122);
}

TEST(MatmulVariants, MvReadsATransposedView) {
  std::mt19937 g(22);
  const int64_t n = 6, m = 5;
  // self is the transpose of a dense m x n buffer: strides {1, n}.
  HostTensorBuf a(ACL_FLOAT, {n, m}, {1, n}, 0), v(ACL_FLOAT, {m}, {2}, 1), out(ACL_FLOAT, {n});
  a.fillRandom(g, -1, 1);
  v.fillRandom(g, -1, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMvGetWorkspaceSize(a.get(), v.get(), out.get(), 0, ws, ex);
            }),
            0);
  for (int64_t i = 0; i < n; ++i) {
    double p = 0;
    for (int64_t k = 0; k < m; ++k) p += a.get(i * m + k) * v.get(k);
    EXPECT_NEAR(out.get(i), p, dotTol(ACL_FLOAT, p)) << i;
  }
}

TEST(MatmulVariants, MvErrors) {
  HostTensorBuf a(ACL_FLOAT, {2, 3}), v(ACL_FLOAT, {3}), v4(ACL_FLOAT, {4}), m2(ACL_FLOAT, {3, 1}),
      out(ACL_FLOAT, {2}), out3(ACL_FLOAT, {3}), i32(ACL_INT32, {2, 3});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMvGetWorkspaceSize(nullptr, v.get(), out.get(), 0, &ws, &ex), kParamNull);
  EXPECT_EQ(aclnnMvGetWorkspaceSize(a.get(), nullptr, out.get(), 0, &ws, &ex), kParamNull);
  EXPECT_EQ(aclnnMvGetWorkspaceSize(a.get(), m2.get(), out.get(), 0, &ws, &ex), kParamInvalid);  // vec 2-D
  EXPECT_EQ(aclnnMvGetWorkspaceSize(a.get(), v4.get(), out.get(), 0, &ws, &ex), kParamInvalid);  // m mismatch
  EXPECT_EQ(aclnnMvGetWorkspaceSize(a.get(), v.get(), out3.get(), 0, &ws, &ex), kParamInvalid);  // out shape
  EXPECT_EQ(aclnnMvGetWorkspaceSize(i32.get(), v.get(), out.get(), 0, &ws, &ex), kParamInvalid);  // dtype
  EXPECT_EQ(aclnnMvGetWorkspaceSize(a.get(), v.get(), out.get(), 7, &ws, &ex),
            kParamInvalid);  // cubeMathType
}

TEST(MatmulVariants, AddmvScalesAndBroadcastsSelf) {
  std::mt19937 g(23);
  const int64_t n = 7, m = 11;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int64_t selfLen : {n, int64_t{1}}) {
      HostTensorBuf self(dt, {selfLen}), mat(dt, {n, m}), v(dt, {m}), out(dt, {n});
      self.fillRandom(g, -2, 2);
      mat.fillRandom(g, -1, 1);
      v.fillRandom(g, -1, 1);
      auto alpha = scalar(1.5), beta = scalar(-0.5);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnAddmvGetWorkspaceSize(self.get(), mat.get(), v.get(), alpha.get(), beta.get(),
                                                    out.get(), 0, ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t i = 0; i < n; ++i) {
        double p = 0;
        for (int64_t k = 0; k < m; ++k) p += mat.get(i * m + k) * v.get(k);
        const double want = -0.5 * self.get(selfLen == 1 ? 0 : i) + 1.5 * p;
        EXPECT_NEAR(out.get(i), want, dotTol(dt, 2 * std::fabs(p) + 2)) << i;
      }
    }
  }
  // The public example: self = [1,1], mat = ones(2,2), vec = [1,1], alpha = beta = 1 -> [3,3].
  HostTensorBuf self(ACL_FLOAT, {2}), mat(ACL_FLOAT, {2, 2}), v(ACL_FLOAT, {2}), out(ACL_FLOAT, {2});
  for (int i = 0; i < 4; ++i) mat.set(i, 1);
  for (int i = 0; i < 2; ++i) self.set(i, 1), v.set(i, 1);
  auto one = scalar(1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddmvGetWorkspaceSize(self.get(), mat.get(), v.get(), one.get(), one.get(),
                                                out.get(), 1, ws, ex);
            }),
            0);
  EXPECT_EQ(out.get(0), 3);
  EXPECT_EQ(out.get(1), 3);
}

TEST(MatmulVariants, AddmvErrors) {
  HostTensorBuf self(ACL_FLOAT, {2}), self3(ACL_FLOAT, {3}), mat(ACL_FLOAT, {2, 3}), v(ACL_FLOAT, {3}),
      out(ACL_FLOAT, {2}), self2d(ACL_FLOAT, {1, 2});
  auto one = scalar(1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnAddmvGetWorkspaceSize(self.get(), mat.get(), v.get(), nullptr, one.get(), out.get(), 0, &ws, &ex),
      kParamNull);
  EXPECT_EQ(
      aclnnAddmvGetWorkspaceSize(nullptr, mat.get(), v.get(), one.get(), one.get(), out.get(), 0, &ws, &ex),
      kParamNull);
  EXPECT_EQ(aclnnAddmvGetWorkspaceSize(self3.get(), mat.get(), v.get(), one.get(), one.get(), out.get(), 0,
                                       &ws, &ex),
            kParamInvalid);  // self does not broadcast to [2]
  EXPECT_EQ(aclnnAddmvGetWorkspaceSize(self2d.get(), mat.get(), v.get(), one.get(), one.get(), out.get(), 0,
                                       &ws, &ex),
            kParamInvalid);  // self 2-D
}

TEST(MatmulVariants, GemmTransposesAndAddsC) {
  std::mt19937 g(24);
  const int64_t M = 6, K = 9, N = 5;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int64_t tA : {0, 1}) {
      for (int64_t tB : {0, 1}) {
        // A is stored K x M when transposed, B N x K.
        HostTensorBuf A(dt, tA ? std::vector<int64_t>{K, M} : std::vector<int64_t>{M, K}),
            B(dt, tB ? std::vector<int64_t>{N, K} : std::vector<int64_t>{K, N}), C(dt, {N}), out(dt, {M, N});
        A.fillRandom(g, -1, 1);
        B.fillRandom(g, -1, 1);
        C.fillRandom(g, -1, 1);
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnGemmGetWorkspaceSize(A.get(), B.get(), C.get(), 2.0f, 0.5f, tA, tB, out.get(),
                                                     0, ws, ex);
                  }),
                  0)
            << aclGetRecentErrMsg();
        for (int64_t m = 0; m < M; ++m) {
          for (int64_t n = 0; n < N; ++n) {
            double p = 0;
            for (int64_t k = 0; k < K; ++k) {
              p += A.get(tA ? k * M + m : m * K + k) * B.get(tB ? n * K + k : k * N + n);
            }
            const double want = 2 * p + 0.5 * C.get(n);
            EXPECT_NEAR(out.get(m * N + n), want, dotTol(dt, 2 * std::fabs(p) + 1)) << m << "," << n;
          }
        }
      }
    }
  }
  // The public example: A = B = [[1,2],[1,2]], C = ones, alpha 1, beta 2 -> [[5,8],[5,8]].
  HostTensorBuf A(ACL_FLOAT, {2, 2}), B(ACL_FLOAT, {2, 2}), C(ACL_FLOAT, {2, 2}), out(ACL_FLOAT, {2, 2});
  for (int i = 0; i < 4; ++i) A.set(i, 1 + i % 2), B.set(i, 1 + i % 2), C.set(i, 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGemmGetWorkspaceSize(A.get(), B.get(), C.get(), 1.0f, 2.0f, 0, 0, out.get(), 1, ws,
                                               ex);
            }),
            0);
  EXPECT_EQ(out.get(0), 5);
  EXPECT_EQ(out.get(1), 8);
  EXPECT_EQ(out.get(2), 5);
  EXPECT_EQ(out.get(3), 8);
}

TEST(MatmulVariants, GemmErrors) {
  HostTensorBuf A(ACL_FLOAT, {2, 3}), B(ACL_FLOAT, {3, 4}), C(ACL_FLOAT, {2, 4}), out(ACL_FLOAT, {2, 4}),
      A3(ACL_FLOAT, {1, 2, 3}), C5(ACL_FLOAT, {5});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnGemmGetWorkspaceSize(A.get(), B.get(), nullptr, 1, 1, 0, 0, out.get(), 0, &ws, &ex),
            kParamNull);
  EXPECT_EQ(aclnnGemmGetWorkspaceSize(A3.get(), B.get(), C.get(), 1, 1, 0, 0, out.get(), 0, &ws, &ex),
            kParamInvalid);  // 3-D A
  EXPECT_EQ(aclnnGemmGetWorkspaceSize(A.get(), B.get(), C.get(), 1, 1, 1, 0, out.get(), 0, &ws, &ex),
            kParamInvalid);  // A^T is 3 x 2: K mismatch
  EXPECT_EQ(aclnnGemmGetWorkspaceSize(A.get(), B.get(), C5.get(), 1, 1, 0, 0, out.get(), 0, &ws, &ex),
            kParamInvalid);  // C does not broadcast
}

// The variants charge the cube work of their product: M*N*K MACs (fp16, tile-aligned shapes)
// and every operand and result byte through MTE at least once; a transposed operand costs the
// same work as a plain one.
TEST(MatmulVariants, CostIsTheProductsCubeWork) {
  const int64_t M = 256, K = 512, N = 128;
  HostTensorBuf A(ACL_FLOAT16, {M, K}), At(ACL_FLOAT16, {K, M}), B(ACL_FLOAT16, {K, N}),
      C(ACL_FLOAT16, {M, N}), out(ACL_FLOAT16, {M, N});
  const Work plain = work([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnGemmGetWorkspaceSize(A.get(), B.get(), C.get(), 1, 1, 0, 0, out.get(), 0, ws, ex);
  });
  const Work trans = work([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnGemmGetWorkspaceSize(At.get(), B.get(), C.get(), 1, 1, 1, 0, out.get(), 0, ws, ex);
  });
  const Work mm = work([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnMmGetWorkspaceSize(A.get(), B.get(), out.get(), 0, ws, ex);
  });
  EXPECT_EQ(plain.macs, static_cast<uint64_t>(M * N * K));
  EXPECT_EQ(trans.macs, plain.macs);
  EXPECT_EQ(trans.read, plain.read);
  EXPECT_GE(plain.read, static_cast<uint64_t>((M * K + K * N + M * N) * 2));
  EXPECT_EQ(plain.read, mm.read + static_cast<uint64_t>(M * N * 2));  // C read once more than Mm
  EXPECT_EQ(plain.written, static_cast<uint64_t>(M * N * 2));
  HostTensorBuf mat(ACL_FLOAT16, {M, K}), v(ACL_FLOAT16, {K}), o(ACL_FLOAT16, {M});
  const Work mv = work([&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnMvGetWorkspaceSize(mat.get(), v.get(), o.get(), 0, ws, ex);
  });
  EXPECT_EQ(mv.macs, static_cast<uint64_t>(M * K));
  EXPECT_EQ(mv.written, static_cast<uint64_t>(M * 2));
}

double geluTanh(double z) {
  return 0.5 * z * (1 + std::tanh(std::sqrt(2 / M_PI) * (z + 0.044715 * z * z * z)));
}

TEST(MatmulVariants, FusedMatmulGeluAppliesBiasThenGelu) {
  std::mt19937 g(25);
  const int64_t B = 2, M = 3, K = 10, N = 7;
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (bool withBias : {true, false}) {
      HostTensorBuf x(dt, {B, M, K}), w(dt, {N, K}), bias(dt, {N}), y(dt, {B, M, N});
      x.fillRandom(g, -1, 1);
      w.fillRandom(g, -1, 1);
      bias.fillRandom(g, -1, 1);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnFusedMatmulGeluGetWorkspaceSize(
                      x.get(), w.get(), withBias ? bias.get() : nullptr, 1, y.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      for (int64_t r = 0; r < B * M; ++r) {
        for (int64_t n = 0; n < N; ++n) {
          double z = withBias ? bias.get(n) : 0;
          for (int64_t k = 0; k < K; ++k) z += x.get(r * K + k) * w.get(n * K + k);
          EXPECT_NEAR(y.get(r * N + n), geluTanh(z), dotTol(dt, std::fabs(z) + 1)) << r << "," << n;
        }
      }
    }
  }
  // A negative pre-activation far from zero is squashed to (nearly) zero, a large positive one kept.
  HostTensorBuf x(ACL_FLOAT16, {1, 2}), w(ACL_FLOAT16, {2, 2}), y(ACL_FLOAT16, {1, 2});
  x.set(0, 4), x.set(1, 0), w.set(0, 1), w.set(1, 0), w.set(2, -1), w.set(3, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFusedMatmulGeluGetWorkspaceSize(x.get(), w.get(), nullptr, 1, y.get(), ws, ex);
            }),
            0);
  EXPECT_NEAR(y.get(0), 4.0, 1e-2);
  EXPECT_NEAR(y.get(1), 0.0, 1e-3);
}

TEST(MatmulVariants, FusedMatmulGeluErrorsAndCost) {
  HostTensorBuf x(ACL_FLOAT16, {64, 128}), w(ACL_FLOAT16, {32, 128}), bias(ACL_FLOAT16, {32}),
      y(ACL_FLOAT16, {64, 32}), bias5(ACL_FLOAT16, {5}), wb(ACL_BF16, {32, 128}), x32(ACL_FLOAT, {64, 128}),
      w32(ACL_FLOAT, {32, 128}), y32(ACL_FLOAT, {64, 32});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnFusedMatmulGeluGetWorkspaceSize(x.get(), nullptr, bias.get(), 1, y.get(), &ws, &ex),
            kParamNull);
  EXPECT_EQ(aclnnFusedMatmulGeluGetWorkspaceSize(x.get(), w.get(), bias.get(), 0, y.get(), &ws, &ex),
            kParamInvalid);  // erf form not documented
  EXPECT_EQ(aclnnFusedMatmulGeluGetWorkspaceSize(x.get(), w.get(), bias5.get(), 1, y.get(), &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnFusedMatmulGeluGetWorkspaceSize(x.get(), wb.get(), bias.get(), 1, y.get(), &ws, &ex),
            kParamInvalid);  // mixed types
  EXPECT_EQ(aclnnFusedMatmulGeluGetWorkspaceSize(x32.get(), w32.get(), nullptr, 1, y32.get(), &ws, &ex),
            kParamInvalid);  // fp32 not supported
  // Cost: the product's MACs, bias read once, each output byte once through the vector unit.
  const Work c = work([&](uint64_t* w1, aclOpExecutor** e) {
    return aclnnFusedMatmulGeluGetWorkspaceSize(x.get(), w.get(), bias.get(), 1, y.get(), w1, e);
  });
  EXPECT_EQ(c.macs, static_cast<uint64_t>(64 * 32 * 128));
  EXPECT_EQ(c.written, static_cast<uint64_t>(64 * 32 * 2));
  EXPECT_EQ(c.vector, c.written);
  EXPECT_GE(c.read, static_cast<uint64_t>((64 * 128 + 32 * 128 + 32) * 2));
}

// Reference of aclnnFusedPatchMlp in double, each layer's activations rounded to dt.
std::vector<double> patchMlpRef(HostTensorBuf& x, HostTensorBuf& w, HostTensorBuf& b, int64_t layers,
                                int64_t rows, int64_t patch, int64_t hidden, aclDataType dt) {
  std::vector<double> h(static_cast<size_t>(rows * patch));
  for (int64_t i = 0; i < rows * patch; ++i) h[static_cast<size_t>(i)] = x.get(i);
  int64_t off = 0;
  for (int64_t l = 0; l < layers; ++l) {
    const int64_t K = l == 0 ? patch : hidden;
    std::vector<double> z(static_cast<size_t>(rows * hidden));
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t n = 0; n < hidden; ++n) {
        double v = b.get(l * hidden + n);
        for (int64_t k = 0; k < K; ++k) v += h[static_cast<size_t>(r * K + k)] * w.get(off + k * hidden + n);
        z[static_cast<size_t>(r * hidden + n)] = roundTo(dt, l + 1 < layers ? geluTanh(v) : v);
      }
    }
    off += K * hidden;
    h = z;
  }
  return h;
}

TEST(MatmulVariants, FusedPatchMlpRunsTheLayers) {
  std::mt19937 g(26);
  const int64_t layers = 3, patch = 8, hidden = 12;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const aclDataType bt = dt == ACL_BF16 ? ACL_FLOAT : dt;
    HostTensorBuf x(dt, {2, 3, patch}), w(dt, {patch * hidden + (layers - 1) * hidden * hidden}),
        b(bt, {layers * hidden}), out(dt, {2, 3, hidden});
    x.fillRandom(g, -1, 1);
    w.fillRandom(g, -0.5, 0.5);
    b.fillRandom(g, -0.5, 0.5);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnFusedPatchMlpGetWorkspaceSize(x.get(), w.get(), b.get(), layers, out.get(), ws,
                                                          ex);
              }),
              0)
        << aclGetRecentErrMsg();
    const std::vector<double> want = patchMlpRef(x, w, b, layers, 6, patch, hidden, dt);
    for (int64_t i = 0; i < 6 * hidden; ++i) {
      // Three layers of rounding to dt, each carried through the next layer's sums.
      EXPECT_NEAR(out.get(i), want[static_cast<size_t>(i)], 8 * tol(dt) * std::max(1.0, std::fabs(want[i])))
          << i;
    }
  }
  // The public example's figures: x = 0.1 (i + 1), all weights 0.02, biases 0 (4 x 16 -> 32).
  HostTensorBuf x(ACL_FLOAT16, {4, 16}), w(ACL_FLOAT16, {16 * 32 + 2 * 32 * 32}), b(ACL_FLOAT16, {96}),
      out(ACL_FLOAT16, {4, 32});
  for (int64_t i = 0; i < 64; ++i) x.set(i, 0.1 * static_cast<double>(i + 1));
  for (int64_t i = 0; i < w.numel(); ++i) w.set(i, 0.02);
  for (int64_t i = 0; i < 96; ++i) b.set(i, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFusedPatchMlpGetWorkspaceSize(x.get(), w.get(), b.get(), 3, out.get(), ws, ex);
            }),
            0);
  const std::vector<double> want = patchMlpRef(x, w, b, 3, 4, 16, 32, ACL_FLOAT16);
  for (int64_t i = 0; i < 128; ++i) EXPECT_NEAR(out.get(i), want[static_cast<size_t>(i)], 1e-2) << i;
}

TEST(MatmulVariants, FusedPatchMlpErrorsAndCost) {
  const int64_t patch = 64, hidden = 128, rows = 256;
  HostTensorBuf x(ACL_FLOAT16, {rows, patch}), w(ACL_FLOAT16, {patch * hidden + hidden * hidden}),
      b(ACL_FLOAT16, {2 * hidden}), out(ACL_FLOAT16, {rows, hidden}), b32(ACL_FLOAT, {2 * hidden}),
      wShort(ACL_FLOAT16, {patch * hidden}), outBad(ACL_FLOAT16, {rows, 2 * hidden});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnFusedPatchMlpGetWorkspaceSize(x.get(), w.get(), nullptr, 2, out.get(), &ws, &ex),
            kParamNull);
  EXPECT_EQ(aclnnFusedPatchMlpGetWorkspaceSize(x.get(), w.get(), b.get(), 0, out.get(), &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnFusedPatchMlpGetWorkspaceSize(x.get(), w.get(), b32.get(), 2, out.get(), &ws, &ex),
            kParamInvalid);  // fp16 x takes fp16 biases
  EXPECT_EQ(aclnnFusedPatchMlpGetWorkspaceSize(x.get(), wShort.get(), b.get(), 2, out.get(), &ws, &ex),
            kParamInvalid);  // weights of one layer only
  EXPECT_EQ(aclnnFusedPatchMlpGetWorkspaceSize(x.get(), w.get(), b.get(), 2, outBad.get(), &ws, &ex),
            kParamInvalid);  // weights size does not match hidden = 256
  // Cost: both layers' MACs; GELU once over the first layer's activations only.
  const Work c = work([&](uint64_t* w1, aclOpExecutor** e) {
    return aclnnFusedPatchMlpGetWorkspaceSize(x.get(), w.get(), b.get(), 2, out.get(), w1, e);
  });
  EXPECT_EQ(c.macs, static_cast<uint64_t>(rows * hidden * (patch + hidden)));
  EXPECT_EQ(c.vector, static_cast<uint64_t>(rows * hidden * 2));
  EXPECT_EQ(c.written, static_cast<uint64_t>(2 * rows * hidden * 2));
}
