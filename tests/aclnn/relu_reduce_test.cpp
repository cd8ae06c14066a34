// aclnnRelu and aclnnReduceSum on host memory against double-precision references.
#include <gtest/gtest.h>

#include <cmath>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "runtime/aclnn/base/error.h"

using namespace aclnn_test;

TEST(Relu, EveryTypeKeepsPositivesAndZeroesTheRest) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64}) {
    std::mt19937 g(static_cast<unsigned>(dt));
    HostTensorBuf a(dt, {5, 13}), o(dt, {5, 13});
    a.fillRandom(g, dt == ACL_UINT8 ? 0 : -100, 100);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnReluGetWorkspaceSize(a.get(), o.get(), &ws, &ex), 0) << dt;
    runOnHost(ex);
    for (int64_t i = 0; i < a.numel(); ++i) {
      const double x = a.get(i);
      ASSERT_EQ(o.get(i), x > 0 ? x : 0.0) << "dtype " << dt << " i " << i;
    }
  }
}

TEST(Relu, NanStaysNanAndInPlaceWorksOnStridedViews) {
  HostTensorBuf a(ACL_FLOAT, {3}), o(ACL_FLOAT, {3});
  a.set(0, NAN);
  a.set(1, -0.0);
  a.set(2, -INFINITY);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnReluGetWorkspaceSize(a.get(), o.get(), &ws, &ex), 0);
  runOnHost(ex);
  EXPECT_TRUE(std::isnan(o.get(0)));
  EXPECT_EQ(o.get(1), 0.0);
  EXPECT_FALSE(std::signbit(o.get(1)));
  EXPECT_EQ(o.get(2), 0.0);

  HostTensorBuf v(ACL_FLOAT16, {4, 3}, {1, 4}, 1);  // transposed view with an offset
  for (int i = 0; i < 12; ++i) v.set(i, i % 2 ? i : -i);
  ASSERT_EQ(aclnnInplaceReluGetWorkspaceSize(v.get(), &ws, &ex), 0);
  runOnHost(ex);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(v.get(i), i % 2 ? i : 0.0) << i;
}

TEST(Relu, ArgumentErrors) {
  HostTensorBuf a(ACL_FLOAT, {2}), o16(ACL_FLOAT16, {2}), o3(ACL_FLOAT, {3}), d(ACL_DOUBLE, {2});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnReluGetWorkspaceSize(nullptr, a.get(), &ws, &ex), 161001);
  EXPECT_EQ(aclnnReluGetWorkspaceSize(a.get(), nullptr, &ws, &ex), 161001);
  EXPECT_EQ(aclnnReluGetWorkspaceSize(a.get(), o16.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnReluGetWorkspaceSize(a.get(), o3.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnReluGetWorkspaceSize(d.get(), d.get(), &ws, &ex), 161002);  // fp64 not in Relu's list
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("fp64"), std::string::npos);
}

namespace {

int reduceSum(HostTensorBuf& self, std::vector<int64_t> dims, bool keep, aclDataType dtype,
              HostTensorBuf& out) {
  aclIntArray* d = aclCreateIntArray(dims.data(), dims.size());
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  int st = aclnnReduceSumGetWorkspaceSize(self.get(), d, keep, dtype, out.get(), &ws, &ex);
  aclDestroyIntArray(d);
  if (st == 0) runOnHost(ex);
  return st;
}

}  // namespace

TEST(ReduceSum, SumsAlongDimsForFloatTypes) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    std::mt19937 g(3);
    HostTensorBuf a(dt, {4, 5, 6});
    a.fillRandom(g, -2, 2);
    HostTensorBuf o(dt, {4, 6});
    ASSERT_EQ(reduceSum(a, {1}, false, dt, o), 0);
    for (int i = 0; i < 4; ++i) {
      for (int k = 0; k < 6; ++k) {
        double s = 0;
        for (int j = 0; j < 5; ++j) s += a.get((i * 5 + j) * 6 + k);
        // Accumulated exactly enough (fp64) that the only error is the final rounding.
        ASSERT_EQ(o.get(i * 6 + k), roundTo(dt, s)) << "dtype " << dt;
      }
    }
  }
}

TEST(ReduceSum, KeepDimsNegativeDimsAndAllDims) {
  HostTensorBuf a(ACL_FLOAT, {2, 3, 4});
  for (int i = 0; i < 24; ++i) a.set(i, i);
  HostTensorBuf k(ACL_FLOAT, {2, 1, 1});
  ASSERT_EQ(reduceSum(a, {-1, 1}, true, ACL_FLOAT, k), 0);
  EXPECT_EQ(k.get(0), 66.0);   // 0..11
  EXPECT_EQ(k.get(1), 210.0);  // 12..23
  HostTensorBuf all(ACL_FLOAT, {});
  ASSERT_EQ(reduceSum(a, {}, false, ACL_FLOAT, all), 0);
  EXPECT_EQ(all.get(0), 276.0);
  HostTensorBuf first(ACL_FLOAT, {3, 4});
  ASSERT_EQ(reduceSum(a, {0}, false, ACL_FLOAT, first), 0);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(first.get(i), 2.0 * i + 12);
}

TEST(ReduceSum, IntegersWrapInTheirWidthAndBoolIsAny) {
  HostTensorBuf a(ACL_INT32, {3});
  a.set(0, 2147483647);
  a.set(1, 1);
  a.set(2, 5);
  HostTensorBuf o(ACL_INT32, {});
  ASSERT_EQ(reduceSum(a, {0}, false, ACL_INT32, o), 0);
  EXPECT_EQ(o.get(0), -2147483648.0 + 5);
  // The same data summed as int64 does not wrap (self is cast to dtype first).
  HostTensorBuf o64(ACL_INT64, {});
  ASSERT_EQ(reduceSum(a, {0}, false, ACL_INT64, o64), 0);
  EXPECT_EQ(o64.get(0), 2147483653.0);
  HostTensorBuf b(ACL_BOOL, {2, 2}), ob(ACL_BOOL, {2});
  b.set(0, 0);
  b.set(1, 0);
  b.set(2, 1);
  b.set(3, 1);
  ASSERT_EQ(reduceSum(b, {1}, false, ACL_BOOL, ob), 0);
  EXPECT_EQ(ob.get(0), 0.0);
  EXPECT_EQ(ob.get(1), 1.0);
  // fp32 input summed as fp16: every element is first rounded to fp16 (to 1.0 here), so the
  // sum is 3 and not the 3 + 2^-9 that rounding the exact sum would give.
  HostTensorBuf f(ACL_FLOAT, {3}), of(ACL_FLOAT16, {});
  for (int i = 0; i < 3; ++i) f.set(i, 1.0 + 0x1p-11 - 0x1p-16);
  ASSERT_EQ(reduceSum(f, {0}, false, ACL_FLOAT16, of), 0);
  EXPECT_EQ(of.get(0), 3.0);
  EXPECT_EQ(roundF16(3 * (1.0 + 0x1p-11 - 0x1p-16)), 3.0 + 0x1p-9);
}

TEST(ReduceSum, StridedInputAndZeroDimTensor) {
  HostTensorBuf a(ACL_FLOAT, {3, 2}, {1, 3}, 0);  // transposed storage
  for (int i = 0; i < 6; ++i) a.set(i, i + 1);
  HostTensorBuf o(ACL_FLOAT, {3});
  ASSERT_EQ(reduceSum(a, {1}, false, ACL_FLOAT, o), 0);
  EXPECT_EQ(o.get(0), 3.0);
  EXPECT_EQ(o.get(1), 7.0);
  EXPECT_EQ(o.get(2), 11.0);
  HostTensorBuf s(ACL_FLOAT, {}), so(ACL_FLOAT, {});
  s.set(0, 4.5);
  ASSERT_EQ(reduceSum(s, {0}, false, ACL_FLOAT, so), 0);
  EXPECT_EQ(so.get(0), 4.5);
}

TEST(ReduceSum, ArgumentErrors) {
  HostTensorBuf a(ACL_FLOAT, {2, 3}), o(ACL_FLOAT, {2}), o16(ACL_FLOAT16, {2});
  std::vector<int64_t> d{1};
  aclIntArray* dims = aclCreateIntArray(d.data(), 1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(nullptr, dims, false, ACL_FLOAT, o.get(), &ws, &ex), 161001);
  EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(a.get(), nullptr, false, ACL_FLOAT, o.get(), &ws, &ex), 161001);
  EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(a.get(), dims, false, ACL_FLOAT, nullptr, &ws, &ex), 161001);
  // dtype must equal out's type.
  EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(a.get(), dims, false, ACL_FLOAT16, o.get(), &ws, &ex), 161002);
  EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(a.get(), dims, false, ACL_FLOAT, o16.get(), &ws, &ex), 161002);
  aclDestroyIntArray(dims);
  HostTensorBuf o2(ACL_FLOAT, {3});
  EXPECT_EQ(reduceSum(a, {2}, false, ACL_FLOAT, o), 161002);      // out of range
  EXPECT_EQ(reduceSum(a, {-3}, false, ACL_FLOAT, o), 161002);     // out of range
  EXPECT_EQ(reduceSum(a, {1, -1}, false, ACL_FLOAT, o), 161002);  // repeated
  EXPECT_NE(npusim::aclnn::lastErrorMessage().find("more than once"), std::string::npos);
  EXPECT_EQ(reduceSum(a, {1}, false, ACL_FLOAT, o2), 161002);  // wrong out shape
  EXPECT_EQ(reduceSum(a, {1}, true, ACL_FLOAT, o), 161002);    // keepDims needs [2,1]
}
