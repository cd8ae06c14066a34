// The small linear algebra of linalg.cpp and the complex parts of complex_parts.cpp: Slogdet
// against determinants expanded in the test, TriangularSolve by substituting the solution
// back, QR by Q·R = A, QᵀQ = I and R's triangle, Polar and RealV2 on complex64 memory, and the
// error codes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_linalg_qr.h"
#include "aclnnop/aclnn_polar.h"
#include "aclnnop/aclnn_qr.h"
#include "aclnnop/aclnn_real_v2.h"
#include "aclnnop/aclnn_slogdet.h"
#include "aclnnop/aclnn_svd.h"
#include "aclnnop/aclnn_triangular_solve.h"

using namespace aclnn_test;

namespace {
constexpr int kParamInvalid = 161002;

// det of a 3 x 3 by the rule of Sarrus
double det3(HostTensorBuf& t, int b) {
  const auto a = [&](int i, int j) { return t.get(b * 9 + i * 3 + j); };
  return a(0, 0) * a(1, 1) * a(2, 2) + a(0, 1) * a(1, 2) * a(2, 0) + a(0, 2) * a(1, 0) * a(2, 1) -
         a(0, 2) * a(1, 1) * a(2, 0) - a(0, 0) * a(1, 2) * a(2, 1) - a(0, 1) * a(1, 0) * a(2, 2);
}
// A dense complex64 tensor over host memory (the test codecs hold real types only).
struct Complex64Buf {
  std::vector<float> parts;
  aclTensor* t;
  explicit Complex64Buf(std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    parts.assign(static_cast<size_t>(2 * n), 0.0f);
    const std::vector<int64_t> st = denseStrides(shape);
    t = aclCreateTensor(shape.data(), shape.size(), ACL_COMPLEX64, st.data(), 0, ACL_FORMAT_ND, shape.data(),
                        shape.size(), parts.data());
  }
  ~Complex64Buf() { aclDestroyTensor(t); }
};
}  // namespace

TEST(Linalg, SlogdetOfABatch) {
  std::mt19937 g(5);
  HostTensorBuf a(ACL_DOUBLE, {4, 3, 3}), sign(ACL_DOUBLE, {4}), logAbs(ACL_DOUBLE, {4});
  a.fillRandom(g, -3, 3);
  for (int k = 0; k < 3; ++k) a.set(3 * 9 + 2 * 3 + k, a.get(3 * 9 + 1 * 3 + k));  // matrix 3 is singular
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSlogdetGetWorkspaceSize(a.get(), sign.get(), logAbs.get(), ws, ex);
            }),
            0);
  for (int b = 0; b < 3; ++b) {
    const double d = det3(a, b);
    EXPECT_EQ(sign.get(b), d > 0 ? 1 : -1);
    EXPECT_NEAR(logAbs.get(b), std::log(std::fabs(d)), 1e-12);
  }
  EXPECT_EQ(sign.get(3), 0);
  EXPECT_EQ(logAbs.get(3), -INFINITY);
  HostTensorBuf rect(ACL_FLOAT, {2, 3}), s1(ACL_FLOAT, {}), l1(ACL_FLOAT, {});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSlogdetGetWorkspaceSize(rect.get(), s1.get(), l1.get(), ws, ex);
            }),
            kParamInvalid);
  Complex64Buf c({2, 2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSlogdetGetWorkspaceSize(c.t, s1.get(), l1.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(Linalg, TriangularSolveSubstitutesBack) {
  std::mt19937 g(7);
  for (bool upper : {true, false}) {
    for (bool transpose : {false, true}) {
      for (bool unit : {false, true}) {
        HostTensorBuf a(ACL_DOUBLE, {2, 4, 4}), b(ACL_DOUBLE, {2, 4, 3}), x(ACL_DOUBLE, {2, 4, 3}),
            m(ACL_DOUBLE, {2, 4, 4});
        a.fillRandom(g, -1, 1);
        for (int bt = 0; bt < 2; ++bt)
          for (int i = 0; i < 4; ++i) a.set(bt * 16 + i * 4 + i, 2 + i);  // a well-conditioned diagonal
        b.fillRandom(g, -2, 2);
        ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnTriangularSolveGetWorkspaceSize(b.get(), a.get(), upper, transpose, unit,
                                                                x.get(), m.get(), ws, ex);
                  }),
                  0);
        for (int bt = 0; bt < 2; ++bt) {
          // T = the triangle of A the operator uses (unit diagonal if asked), op(T) = T or Tᵀ
          const auto t = [&](int i, int j) {
            if (i == j) return unit ? 1.0 : a.get(bt * 16 + i * 4 + j);
            return (upper ? j > i : j < i) ? a.get(bt * 16 + i * 4 + j) : 0.0;
          };
          for (int i = 0; i < 4; ++i)
            for (int c = 0; c < 3; ++c) {
              double s = 0;
              for (int j = 0; j < 4; ++j) s += (transpose ? t(j, i) : t(i, j)) * x.get(bt * 12 + j * 3 + c);
              EXPECT_NEAR(s, b.get(bt * 12 + i * 3 + c), 1e-10) << upper << transpose << unit;
            }
          for (int i = 0; i < 16; ++i) EXPECT_EQ(m.get(bt * 16 + i), a.get(bt * 16 + i));
        }
      }
    }
  }
}

TEST(Linalg, QrReducedAndComplete) {
  std::mt19937 g(9);
  for (int mode : {0, 1}) {
    const int m = 5, n = 3, qc = mode == 0 ? 3 : 5, rr = mode == 0 ? 3 : 5;
    HostTensorBuf a(ACL_DOUBLE, {m, n}), q(ACL_DOUBLE, {m, qc}), r(ACL_DOUBLE, {rr, n});
    a.fillRandom(g, -2, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLinalgQrGetWorkspaceSize(a.get(), mode, q.get(), r.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int k = 0; k < std::min(qc, rr); ++k) s += q.get(i * qc + k) * r.get(k * n + j);
        EXPECT_NEAR(s, a.get(i * n + j), 1e-12) << "QR = A, mode " << mode;
      }
    for (int i = 0; i < qc; ++i)
      for (int j = 0; j < qc; ++j) {
        double s = 0;
        for (int k = 0; k < m; ++k) s += q.get(k * qc + i) * q.get(k * qc + j);
        EXPECT_NEAR(s, i == j ? 1 : 0, 1e-12) << "QᵀQ = I";
      }
    for (int i = 0; i < rr; ++i)
      for (int j = 0; j < std::min(i, n); ++j) EXPECT_EQ(r.get(i * n + j), 0) << "R upper triangular";
  }
  // Qr(some = true) on fp32; a Q of the wrong shape; a bad mode
  HostTensorBuf a(ACL_FLOAT, {2, 2}), q(ACL_FLOAT, {2, 2}), r(ACL_FLOAT, {2, 2}), bad(ACL_FLOAT, {2, 3});
  a.set(0, 1);
  a.set(1, 2);
  a.set(2, 3);
  a.set(3, 4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnQrGetWorkspaceSize(a.get(), true, q.get(), r.get(), ws, ex);
            }),
            0);
  EXPECT_NEAR(r.get(0), -std::sqrt(10.0), 1e-6);  // LAPACK's sign: -sign(a00)·|column|
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnQrGetWorkspaceSize(a.get(), true, bad.get(), r.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLinalgQrGetWorkspaceSize(a.get(), 3, q.get(), r.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(Linalg, SvdReconstructsTheMatrix) {
  std::mt19937 g(13);
  for (bool full : {true, false}) {
    const int m = 4, n = 3, k = 3, uc = full ? m : k, vc = full ? n : k;
    HostTensorBuf a(ACL_DOUBLE, {2, m, n}), s(ACL_DOUBLE, {2, k}), u(ACL_DOUBLE, {2, m, uc}),
        v(ACL_DOUBLE, {2, n, vc});
    a.fillRandom(g, -2, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnSvdGetWorkspaceSize(a.get(), full, true, s.get(), u.get(), v.get(), ws, ex);
              }),
              0);
    for (int b = 0; b < 2; ++b) {
      for (int j = 0; j + 1 < k; ++j) EXPECT_GE(s.get(b * k + j), s.get(b * k + j + 1));  // descending
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double r = 0;
          for (int c = 0; c < k; ++c)
            r += u.get(b * m * uc + i * uc + c) * s.get(b * k + c) * v.get(b * n * vc + j * vc + c);
          EXPECT_NEAR(r, a.get(b * m * n + i * n + j), 1e-9) << "U S Vt = A";
        }
      for (int x = 0; x < uc; ++x)
        for (int y = 0; y < uc; ++y) {
          double d = 0;
          for (int i = 0; i < m; ++i) d += u.get(b * m * uc + i * uc + x) * u.get(b * m * uc + i * uc + y);
          EXPECT_NEAR(d, x == y ? 1 : 0, 1e-9) << "UtU = I";
        }
    }
  }
  HostTensorBuf a(ACL_FLOAT, {2, 3}), s(ACL_FLOAT, {3}), u(ACL_FLOAT, {2, 2}), v(ACL_FLOAT, {3, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSvdGetWorkspaceSize(a.get(), true, true, s.get(), u.get(), v.get(), ws, ex);
            }),
            kParamInvalid);  // sigma has min(m, n) = 2 entries
}

TEST(ComplexParts, PolarBroadcastsAndRealV2TakesTheRealPart) {
  HostTensorBuf r(ACL_FLOAT, {2, 1}), a(ACL_FLOAT, {3});
  Complex64Buf out({2, 3});
  for (int i = 0; i < 2; ++i) r.set(i, 1 + i);
  for (int j = 0; j < 3; ++j) a.set(j, 0.5 * j - 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPolarGetWorkspaceSize(r.get(), a.get(), out.t, ws, ex);
            }),
            0);
  const float* z = out.parts.data();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      const double ang = static_cast<float>(0.5 * j - 1);
      EXPECT_NEAR(z[2 * (i * 3 + j)], (1 + i) * std::cos(ang), 1e-6);
      EXPECT_NEAR(z[2 * (i * 3 + j) + 1], (1 + i) * std::sin(ang), 1e-6);
    }
  HostTensorBuf re(ACL_FLOAT, {2, 3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealV2GetWorkspaceSize(out.t, re.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(re.get(i), z[2 * i]);
  HostTensorBuf wrong(ACL_FLOAT, {2, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPolarGetWorkspaceSize(r.get(), a.get(), wrong.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf h(ACL_FLOAT16, {2, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRealV2GetWorkspaceSize(out.t, h.get(), ws, ex);
            }),
            kParamInvalid);
}
