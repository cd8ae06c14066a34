// aclnnBaddbmm, aclnnAddbmm (and their in-place forms) and aclnnEinsum against references
// written here: fp32/fp16/bf16, broadcast self and batches, transposed views, integer einsum
// exactness, error codes and the cube work charged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_einsum.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;
ScalarPtr scalar(double v) { return ScalarPtr(makeScalar(ACL_FLOAT, v), aclDestroyScalar); }

// sum over k of a[b, m, k] * c[b, k, n] for dense row-major [B, M, K] and [B, K, N] buffers.
double dot(HostTensorBuf& a, HostTensorBuf& c, int64_t b, int64_t m, int64_t n, int64_t M, int64_t K,
           int64_t N) {
  double p = 0;
  for (int64_t k = 0; k < K; ++k) p += a.get((b * M + m) * K + k) * c.get((b * K + k) * N + n);
  return p;
}

}  // namespace

TEST(BatchAddmm, BaddbmmScalesAndBroadcasts) {
  std::mt19937 g(2801);
  const int64_t B = 3, M = 5, K = 17, N = 6;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (bool inplace : {false, true}) {
      HostTensorBuf b1(dt, {B, M, K}), b2(dt, {B, K, N}), out(dt, {B, M, N});
      HostTensorBuf self(dt, inplace ? std::vector<int64_t>{B, M, N} : std::vector<int64_t>{1, N});
      b1.fillRandom(g, -1, 1);
      b2.fillRandom(g, -1, 1);
      self.fillRandom(g, -1, 1);
      std::vector<double> s0(static_cast<size_t>(self.numel()));
      for (int64_t i = 0; i < self.numel(); ++i) s0[static_cast<size_t>(i)] = self.get(i);
      auto beta = scalar(0.5), alpha = scalar(-2.0);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return inplace ? aclnnInplaceBaddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(),
                                                                       beta.get(), alpha.get(), 0, ws, ex)
                                 : aclnnBaddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), beta.get(),
                                                                alpha.get(), out.get(), 0, ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      HostTensorBuf& res = inplace ? self : out;
      for (int64_t b = 0; b < B; ++b)
        for (int64_t m = 0; m < M; ++m)
          for (int64_t n = 0; n < N; ++n) {
            const int64_t o = (b * M + m) * N + n;
            const double s = s0[static_cast<size_t>(inplace ? o : n)];
            const double want = 0.5 * s - 2.0 * dot(b1, b2, b, m, n, M, K, N);
            EXPECT_NEAR(res.get(o), want, 8 * tol(dt) * std::max(1.0, std::fabs(want))) << dt << inplace << o;
          }
    }
  }
}

TEST(BatchAddmm, BaddbmmBroadcastsBatchesAndIgnoresSelfAtBetaZero) {
  std::mt19937 g(2802);
  const int64_t B = 4, M = 3, K = 5, N = 2;
  HostTensorBuf b1(ACL_FLOAT, {1, M, K}), b2(ACL_FLOAT, {B, K, N}), out(ACL_FLOAT, {B, M, N}),
      self(ACL_FLOAT, {B, M, N});
  b1.fillRandom(g, -1, 1);
  b2.fillRandom(g, -1, 1);
  for (int64_t i = 0; i < self.numel(); ++i) self.set(i, NAN);
  auto beta = scalar(0), alpha = scalar(1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBaddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), beta.get(), alpha.get(),
                                                  out.get(), 0, ws, ex);
            }),
            0)
      << aclGetRecentErrMsg();
  for (int64_t b = 0; b < B; ++b)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double p = 0;
        for (int64_t k = 0; k < K; ++k) p += b1.get(m * K + k) * b2.get((b * K + k) * N + n);
        EXPECT_NEAR(out.get((b * M + m) * N + n), p, 1e-5);
      }
  // In place, the batches may not broadcast.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnInplaceBaddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), beta.get(), alpha.get(), 0,
                                                &ws, &ex),
            kParamInvalid);
}

TEST(BatchAddmm, AddbmmSumsTheBatch) {
  std::mt19937 g(2803);
  const int64_t B = 5, M = 4, K = 9, N = 7;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (bool inplace : {false, true}) {
      // batch2 is a transposed view of a dense [B, N, K] buffer.
      HostTensorBuf b1(dt, {B, M, K}), b2(dt, {B, K, N}, {N * K, 1, K}, 0), out(dt, {M, N});
      HostTensorBuf self(dt, inplace ? std::vector<int64_t>{M, N} : std::vector<int64_t>{M, 1});
      b1.fillRandom(g, -1, 1);
      b2.fillRandom(g, -1, 1);
      self.fillRandom(g, -1, 1);
      std::vector<double> s0(static_cast<size_t>(self.numel()));
      for (int64_t i = 0; i < self.numel(); ++i) s0[static_cast<size_t>(i)] = self.get(i);
      auto beta = scalar(2), alpha = scalar(0.25);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return inplace ? aclnnInplaceAddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(),
                                                                      beta.get(), alpha.get(), 0, ws, ex)
                                 : aclnnAddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), beta.get(),
                                                               alpha.get(), out.get(), 0, ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      HostTensorBuf& res = inplace ? self : out;
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          double sum = 0;
          for (int64_t b = 0; b < B; ++b) sum += dot(b1, b2, b, m, n, M, K, N);
          const double want = 2 * s0[static_cast<size_t>(inplace ? m * N + n : m)] + 0.25 * sum;
          EXPECT_NEAR(res.get(m * N + n), want, 8 * tol(dt) * std::max(1.0, std::fabs(want)))
              << dt << inplace;
        }
    }
  }
}

TEST(BatchAddmm, ErrorsAndWork) {
  HostTensorBuf self(ACL_FLOAT, {3, 5}), b1(ACL_FLOAT, {2, 3, 4}), b2(ACL_FLOAT, {2, 4, 5}),
      out(ACL_FLOAT, {3, 5}), b2bad(ACL_FLOAT, {2, 6, 5}), b2d(ACL_FLOAT, {4, 5}), out3(ACL_FLOAT, {2, 3, 5}),
      i32(ACL_INT32, {2, 3, 4});
  auto one = scalar(1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(
      aclnnAddbmmGetWorkspaceSize(nullptr, b1.get(), b2.get(), one.get(), one.get(), out.get(), 0, &ws, &ex),
      kParamNull);
  EXPECT_EQ(
      aclnnAddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), nullptr, one.get(), out.get(), 0, &ws, &ex),
      kParamNull);
  EXPECT_EQ(aclnnAddbmmGetWorkspaceSize(self.get(), b1.get(), b2bad.get(), one.get(), one.get(), out.get(), 0,
                                        &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnAddbmmGetWorkspaceSize(self.get(), b1.get(), b2d.get(), one.get(), one.get(), out.get(), 0,
                                        &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnAddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), one.get(), one.get(), out3.get(), 0,
                                        &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnAddbmmGetWorkspaceSize(self.get(), i32.get(), b2.get(), one.get(), one.get(), out.get(), 0,
                                        &ws, &ex),
            kParamInvalid);
  EXPECT_EQ(aclnnBaddbmmGetWorkspaceSize(out3.get(), b1.get(), b2.get(), one.get(), one.get(), out.get(), 0,
                                         &ws, &ex),
            kParamInvalid);  // out must be the batched product's shape
  // Work: B·M·N·K MACs, true fp32 at two fp16 MAC slots each; self read once.
  ASSERT_EQ(aclnnAddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), one.get(), one.get(), out.get(), 0,
                                        &ws, &ex),
            0);
  uint64_t macs = 0, read = 0;
  for (const auto& t : npusim::aclnn::executorOp(ex)->work().tiles) {
    macs += t.cubeMacs;
    read += t.readBytes;
  }
  aclDestroyAclOpExecutor(ex);
  EXPECT_EQ(macs, 2u * 2u * 3u * 5u * 4u);
  EXPECT_GE(read, (2u * 3u * 4u + 2u * 4u * 5u + 3u * 5u) * 4u);
}

TEST(Einsum, BatchedRowDotAndOuterProduct) {
  // The public example's "abcd,abced->abce" on int32, and the same on fp32/fp16 and int64.
  std::mt19937 g(2804);
  const int64_t A = 1, Bd = 2, C = 3, D = 4, E = 5;
  for (aclDataType dt : {ACL_INT32, ACL_INT64, ACL_INT16, ACL_FLOAT, ACL_FLOAT16}) {
    HostTensorBuf x(dt, {A, Bd, C, D}), y(dt, {A, Bd, C, E, D}), out(dt, {A, Bd, C, E});
    x.fillRandom(g, -9, 10);
    y.fillRandom(g, -9, 10);
    aclTensorList* list = nullptr;
    aclTensor* items[] = {listHandle(x), listHandle(y)};
    list = aclCreateTensorList(items, 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnEinsumGetWorkspaceSize(list, "abcd,abced->abce", out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < A * Bd * C; ++i)
      for (int64_t e = 0; e < E; ++e) {
        double p = 0;
        for (int64_t d = 0; d < D; ++d) p += x.get(i * D + d) * y.get((i * E + e) * D + d);
        if (isFloatType(dt)) {
          EXPECT_NEAR(out.get(i * E + e), p, 4 * tol(dt) * std::max(1.0, std::fabs(p)));
        } else {
          EXPECT_EQ(out.get(i * E + e), p) << dt;
        }
      }
    aclDestroyTensorList(list);
  }
  // "a,b->ab": the outer product, with int32 wrap-around.
  HostTensorBuf a(ACL_INT32, {3}), b(ACL_INT32, {2}), out(ACL_INT32, {3, 2});
  const double av[] = {1, -7, 65536}, bv[] = {3, 65536};
  for (int i = 0; i < 3; ++i) a.set(i, av[i]);
  for (int i = 0; i < 2; ++i) b.set(i, bv[i]);
  aclTensor* items[] = {listHandle(a), listHandle(b)};
  aclTensorList* list = aclCreateTensorList(items, 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnEinsumGetWorkspaceSize(list, "a,b->ab", out.get(), ws, ex);
            }),
            0);
  const double want[] = {3, 65536, -21, -7 * 65536, 3 * 65536, 0};  // 2^32 wraps to 0
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), want[i]) << i;
  aclDestroyTensorList(list);
}

TEST(Einsum, Errors) {
  HostTensorBuf x(ACL_FLOAT, {1, 2, 3, 4}), y(ACL_FLOAT, {1, 2, 3, 5, 4}), out(ACL_FLOAT, {1, 2, 3, 5}),
      yBad(ACL_FLOAT, {1, 2, 3, 5, 3}), yInt(ACL_INT32, {1, 2, 3, 5, 4}), outBad(ACL_FLOAT, {1, 2, 3, 4}),
      xb(ACL_BF16, {1, 2, 3, 4}), yb(ACL_BF16, {1, 2, 3, 5, 4}), ob(ACL_BF16, {1, 2, 3, 5});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](HostTensorBuf& p, HostTensorBuf& q, const char* eq, HostTensorBuf& o) {
    aclTensor* items[] = {listHandle(p), listHandle(q)};
    aclTensorList* list = aclCreateTensorList(items, 2);
    const int st = aclnnEinsumGetWorkspaceSize(list, eq, o.get(), &ws, &ex);
    if (st == 0) aclDestroyAclOpExecutor(ex);
    aclDestroyTensorList(list);
    return st;
  };
  EXPECT_EQ(call(x, y, "abcd,abced->abce", out), 0);
  EXPECT_EQ(call(x, y, "abcd,abced->abcd", out), kParamInvalid);  // not a registered equation
  EXPECT_EQ(call(x, yBad, "abcd,abced->abce", out), kParamInvalid);
  EXPECT_EQ(call(x, yInt, "abcd,abced->abce", out), kParamInvalid);  // types differ
  EXPECT_EQ(call(x, y, "abcd,abced->abce", outBad), kParamInvalid);
  EXPECT_EQ(call(xb, yb, "abcd,abced->abce", ob), kParamInvalid);  // bf16 not in the doc's list
  EXPECT_EQ(call(x, y, "a,b->ab", out), kParamInvalid);            // 1-D operands required
  EXPECT_EQ(aclnnEinsumGetWorkspaceSize(nullptr, "a,b->ab", out.get(), &ws, &ex), kParamNull);
  aclTensor* items[] = {listHandle(x), listHandle(y)};
  aclTensorList* list = aclCreateTensorList(items, 2);
  EXPECT_EQ(aclnnEinsumGetWorkspaceSize(list, nullptr, out.get(), &ws, &ex), kParamNull);
  // Cost: both inputs read once, the output written once.
  ASSERT_EQ(aclnnEinsumGetWorkspaceSize(list, "abcd,abced->abce", out.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, (24u + 120u) * 4u);
  EXPECT_EQ(c.written, 30u * 4u);
  aclDestroyTensorList(list);
}
