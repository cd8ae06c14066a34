// The scan engine (scan_op.h): Cumsum / CumsumV2 / Cumprod / Cummax / Cummin against running
// sums, products and extrema computed in the test, along every dimension of a transposed view,
// in fp32/fp16/bf16 and integers (wrapping), exclusive and reverse scans, ties and NaN for the
// extrema, the in-place Cumprod, errors and the bytes charged.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_cummax.h"
#include "aclnnop/aclnn_cummin.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

// Row-major index of (i, j, k) in a [2, 3, 4] tensor, and its position along `dim`.
int64_t flat(int64_t i, int64_t j, int64_t k) { return (i * 3 + j) * 4 + k; }

// The reference scan of `x` ([2, 3, 4] row-major values) along dim: f(acc, v), with `first` the
// start value, exclusive/reverse as the V2 flags.
std::vector<double> scanRef(const std::vector<double>& x, int dim, double first, double (*f)(double, double),
                            bool exclusive = false, bool reverse = false) {
  const int64_t ext[3] = {2, 3, 4};
  std::vector<double> r(x.size());
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 4; ++k) {
        int64_t idx[3] = {i, j, k};
        const int64_t p = idx[dim];
        double acc = first;
        const int64_t lo = reverse ? p : 0, hi = reverse ? ext[dim] - 1 : p;
        for (int64_t q = lo; q <= hi; ++q) {
          if (exclusive && q == p) continue;
          idx[dim] = q;
          acc = f(acc, x[static_cast<size_t>(flat(idx[0], idx[1], idx[2]))]);
        }
        r[static_cast<size_t>(flat(i, j, k))] = acc;
      }
  return r;
}

double add(double a, double b) { return a + b; }
double mul(double a, double b) { return a * b; }

}  // namespace

TEST(Cumulative, CumsumAndCumprodAlongEveryDimension) {
  std::mt19937 g(8);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    // self: a [2, 3, 4] view over a [4, 3, 2] buffer (dims reversed).
    HostTensorBuf self(dt, {2, 3, 4}, {1, 2, 6}, 0), out(dt, {2, 3, 4}), wide(ACL_FLOAT, {2, 3, 4});
    self.fillRandom(g, 0.5, 1.5);
    std::vector<double> x(24);
    for (int i = 0; i < 24; ++i) x[i] = self.get(i);
    for (int dim : {0, 1, 2, -1}) {
      const int d = dim < 0 ? dim + 3 : dim;
      const std::string what = "dtype " + std::to_string(dt) + " dim " + std::to_string(dim);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnCumsumGetWorkspaceSize(self.get(), dim, dt, out.get(), ws, ex);
                }),
                0)
          << aclGetRecentErrMsg();
      std::vector<double> want = scanRef(x, d, 0, add);
      for (int i = 0; i < 24; ++i) expectNear(out.get(i), out.stored(want[i]), dt, what);
      // A wider out type (dtype fp32).
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnCumsumGetWorkspaceSize(self.get(), dim, ACL_FLOAT, wide.get(), ws, ex);
                }),
                0);
      for (int i = 0; i < 24; ++i) expectNear(wide.get(i), want[i], ACL_FLOAT, what);
      aclScalar* ds = makeScalar(ACL_INT64, dim);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnCumprodGetWorkspaceSize(self.get(), ds, ACL_DT_UNDEFINED, out.get(), ws, ex);
                }),
                0);
      want = scanRef(x, d, 1, mul);
      for (int i = 0; i < 24; ++i) expectNear(out.get(i), out.stored(want[i]), dt, what + " cumprod");
      aclDestroyScalar(ds);
    }
  }
}

TEST(Cumulative, ExclusiveReverseIntegersAndInPlace) {
  HostTensorBuf self(ACL_INT32, {2, 3, 4}), out(ACL_INT32, {2, 3, 4});
  std::vector<double> x(24);
  for (int i = 0; i < 24; ++i) self.set(i, x[i] = (i * 7) % 11 - 5);
  for (bool exclusive : {false, true})
    for (bool reverse : {false, true}) {
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnCumsumV2GetWorkspaceSize(self.get(), 1, exclusive, reverse, out.get(), ws, ex);
                }),
                0);
      const std::vector<double> want = scanRef(x, 1, 0, add, exclusive, reverse);
      for (int i = 0; i < 24; ++i) EXPECT_EQ(out.get(i), want[i]) << i << " " << exclusive << reverse;
    }
  // int8 products wrap at 8 bits: 2^7 = -128, 2^8 = 0.
  HostTensorBuf b(ACL_INT8, {9}), bo(ACL_INT8, {9});
  for (int i = 0; i < 9; ++i) b.set(i, 2);
  aclScalar* d0 = makeScalar(ACL_INT32, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCumprodGetWorkspaceSize(b.get(), d0, ACL_INT8, bo.get(), ws, ex);
            }),
            0);
  const double wrapped[] = {2, 4, 8, 16, 32, 64, -128, 0, 0};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(bo.get(i), wrapped[i]) << i;
  // In place.
  HostTensorBuf f(ACL_FLOAT, {4});
  for (int i = 0; i < 4; ++i) f.set(i, i + 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceCumprodGetWorkspaceSize(f.get(), d0, ws, ex);
            }),
            0);
  const double fact[] = {1, 2, 6, 24};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(f.get(i), fact[i]);
  aclDestroyScalar(d0);
}

TEST(Cumulative, CummaxCumminTiesAndNaN) {
  HostTensorBuf self(ACL_FLOAT, {8}), vals(ACL_FLOAT, {8}), idx(ACL_INT64, {8}), idx32(ACL_INT32, {8});
  const double x[] = {1, 3, 3, 2, 5, NAN, 7, 0};
  for (int i = 0; i < 8; ++i) self.set(i, x[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCummaxGetWorkspaceSize(self.get(), 0, vals.get(), idx.get(), ws, ex);
            }),
            0);
  // Ties move the index to the later element; NaN wins from its position on.
  const double maxV[] = {1, 3, 3, 3, 5, NAN, NAN, NAN}, maxI[] = {0, 1, 2, 2, 4, 5, 5, 5};
  for (int i = 0; i < 8; ++i) {
    if (std::isnan(maxV[i])) {
      EXPECT_TRUE(std::isnan(vals.get(i))) << i;
    } else {
      EXPECT_EQ(vals.get(i), maxV[i]) << i;
    }
    EXPECT_EQ(idx.get(i), maxI[i]) << i;
  }
  self.set(5, -4);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCumminGetWorkspaceSize(self.get(), -1, vals.get(), idx32.get(), ws, ex);
            }),
            0);
  const double minV[] = {1, 1, 1, 1, 1, -4, -4, -4}, minI[] = {0, 0, 0, 0, 0, 5, 5, 5};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(vals.get(i), minV[i]) << i;
    EXPECT_EQ(idx32.get(i), minI[i]) << i;
  }
}

TEST(Cumulative, ErrorsAndBytes) {
  HostTensorBuf a(ACL_FLOAT, {4, 5}), o(ACL_FLOAT, {4, 5}), o16(ACL_FLOAT16, {4, 5}), small(ACL_FLOAT, {4}),
      idxF(ACL_FLOAT, {4, 5});
  auto cumsum = [&](const aclTensor* s, int64_t dim, aclDataType dt, aclTensor* out) {
    return run([&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnCumsumGetWorkspaceSize(s, dim, dt, out, ws, ex);
    });
  };
  EXPECT_EQ(cumsum(nullptr, 0, ACL_FLOAT, o.get()), kParamNull);
  EXPECT_EQ(cumsum(a.get(), 2, ACL_FLOAT, o.get()), kParamInvalid);    // dim out of range
  EXPECT_EQ(cumsum(a.get(), -3, ACL_FLOAT, o.get()), kParamInvalid);   // likewise
  EXPECT_EQ(cumsum(a.get(), 0, ACL_FLOAT, o16.get()), kParamInvalid);  // out is not of dtype's type
  EXPECT_EQ(cumsum(a.get(), 0, ACL_FLOAT, small.get()), kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCummaxGetWorkspaceSize(a.get(), 0, o.get(), idxF.get(), ws, ex);
            }),
            kParamInvalid);  // indices must be int32 or int64
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCumprodGetWorkspaceSize(a.get(), nullptr, ACL_FLOAT, o.get(), ws, ex);
            }),
            kParamNull);
  // Cost: self read once and out written once; Cummax also writes its indices.
  HostTensorBuf x(ACL_FLOAT16, {256, 512}), y(ACL_FLOAT16, {256, 512}), i64(ACL_INT64, {256, 512});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnCumsumGetWorkspaceSize(x.get(), 1, ACL_FLOAT16, y.get(), &ws, &ex), 0);
  Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 256u * 512 * 2);
  EXPECT_EQ(c.written, 256u * 512 * 2);
  ASSERT_EQ(aclnnCummaxGetWorkspaceSize(x.get(), 0, y.get(), i64.get(), &ws, &ex), 0);
  c = chargedBytes(ex);
  EXPECT_EQ(c.read, 256u * 512 * 2);
  EXPECT_EQ(c.written, 256u * 512 * (2 + 8));
}
