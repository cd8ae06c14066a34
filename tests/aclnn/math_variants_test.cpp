// The elementwise math variants of math_variants.cpp: each against its definition written in
// the test (fp32/fp16/bf16 where the operator takes them, strided views, broadcasting, integers
// of both signs), the in-place and tensor-list forms, error codes and the bytes charged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_maximum_v2.h"
#include "aclnnop/aclnn_maxn.h"
#include "aclnnop/aclnn_minn.h"
#include "aclnnop/aclnn_mul_no_nan.h"
#include "aclnnop/aclnn_mul_v2.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow2.h"
#include "aclnnop/aclnn_real_div.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_sinh_v2.h"
#include "aclnnop/aclnn_square_v2.h"
#include "aclnnop/aclnn_sub_v2.h"
#include "aclnnop/aclnn_tan_v2.h"
#include "aclnnop/aclnn_tan_v3.h"
#include "aclnnop/aclnn_trunc_v2.h"
#include "aclnnop/aclnn_truncate_div.h"
#include "aclnnop/aclnn_truncate_mod.h"
#include "aclnnop/aclnn_x_log_y_scalar_self.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using UnaryFn = std::function<int(const aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**)>;
using BinaryFn =
    std::function<int(const aclTensor*, const aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**)>;

#define U_OP(Name)                                                             \
  [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) { \
    return aclnn##Name##GetWorkspaceSize(x, y, w, e);                          \
  }
#define B_OP(Name)                                                                                 \
  [](const aclTensor* a, const aclTensor* b, const aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    return aclnn##Name##GetWorkspaceSize(a, b, o, w, e);                                           \
  }

struct Unary {
  std::string name;
  UnaryFn fn;
  std::function<double(double)> ref;
  double lo, hi;  // input range
};

std::vector<Unary> unaries() {
  return {{"SinhV2", U_OP(SinhV2), [](double x) { return (std::exp(x) - std::exp(-x)) / 2; }, -3, 3},
          {"SquareV2", U_OP(SquareV2), [](double x) { return x * x; }, -20, 20},
          {"TanV2", U_OP(TanV2), [](double x) { return std::sin(x) / std::cos(x); }, -1.2, 1.2},
          {"TanV3", U_OP(TanV3), [](double x) { return std::sin(x) / std::cos(x); }, -1.2, 1.2},
          {"TruncV2", U_OP(TruncV2), [](double x) { return x < 0 ? std::ceil(x) : std::floor(x); }, -9, 9},
          {"Exp2",
           [](const aclTensor* x, const aclTensor* y, uint64_t* w, aclOpExecutor** e) {
             return aclnnExp2GetWorkspaceSize(x, const_cast<aclTensor*>(y), w, e);
           },
           [](double x) { return std::pow(2.0, x); }, -6, 6}};
}

}  // namespace

TEST(MathVariants, UnaryOnTransposedViews) {
  std::mt19937 g(11);
  for (const Unary& op : unaries()) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
      // self a transposed [3, 4] view of a [4, 3] buffer
      HostTensorBuf x(dt, {3, 4}, {1, 3}, 0), y(dt, {3, 4});
      x.fillRandom(g, op.lo, op.hi);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return op.fn(x.get(), y.get(), ws, ex); }), 0)
          << op.name << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 12; ++i) expectNear(y.get(i), y.stored(op.ref(x.get(i))), dt, op.name);
    }
  }
  // bf16 and integers are not among the V2 types (their op definitions: fp32, fp16)
  HostTensorBuf b(ACL_BF16, {2}), bo(ACL_BF16, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSinhV2GetWorkspaceSize(b.get(), bo.get(), ws, ex);
            }),
            kParamInvalid);
  // Exp2 of integers computes in fp32 into a floating out; in place too.
  HostTensorBuf i(ACL_INT32, {4}), f(ACL_FLOAT, {4}), io(ACL_INT32, {4});
  for (int k = 0; k < 4; ++k) i.set(k, k - 1);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExp2GetWorkspaceSize(i.get(), f.get(), ws, ex);
            }),
            0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(f.get(k), std::pow(2.0, k - 1));
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnExp2GetWorkspaceSize(i.get(), io.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf h(ACL_BF16, {3});
  for (int k = 0; k < 3; ++k) h.set(k, 0.5 * k);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceExp2GetWorkspaceSize(h.get(), ws, ex);
            }),
            0);
  for (int k = 0; k < 3; ++k)
    expectNear(h.get(k), roundBf16(std::pow(2.0, 0.5 * k)), ACL_BF16, "InplaceExp2");
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTanV2GetWorkspaceSize(nullptr, f.get(), ws, ex);
            }),
            kParamNull);
}

TEST(MathVariants, TruncateDivModAndMulNoNan) {
  // integers of both signs: truncation toward zero, remainder with the dividend's sign
  HostTensorBuf a(ACL_INT32, {2, 4}), b(ACL_INT32, {4}), q(ACL_INT32, {2, 4}), r(ACL_INT32, {2, 4});
  const double av[] = {7, -7, 7, -7, 9, -9, 0, 5}, bv[] = {2, 2, -2, -2};
  for (int i = 0; i < 8; ++i) a.set(i, av[i]);
  for (int i = 0; i < 4; ++i) b.set(i, bv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTruncateDivGetWorkspaceSize(a.get(), b.get(), q.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnTruncateModGetWorkspaceSize(a.get(), b.get(), r.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(q.get(i), std::trunc(av[i] / bv[i % 4])) << i;
    EXPECT_EQ(r.get(i), av[i] - std::trunc(av[i] / bv[i % 4]) * bv[i % 4]) << i;
  }
  std::mt19937 g(5);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {3, 5}), y(dt, {3, 5}), o(dt, {3, 5});
    x.fillRandom(g, -30, 30);
    y.fillRandom(g, 0.5, 6);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnTruncateDivGetWorkspaceSize(x.get(), y.get(), o.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 15; ++i) expectNear(o.get(i), std::trunc(x.get(i) / y.get(i)), dt, "TruncateDiv");
  }
  // MulNoNan: 0 wherever y is 0, even for an infinite or NaN x
  HostTensorBuf x(ACL_FLOAT, {4}), y(ACL_FLOAT, {4}), z(ACL_FLOAT, {4});
  const double xv[] = {INFINITY, NAN, 3, -2}, yv[] = {0, 0, 0.5, 4};
  for (int i = 0; i < 4; ++i) {
    x.set(i, xv[i]);
    y.set(i, yv[i]);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMulNoNanGetWorkspaceSize(x.get(), y.get(), z.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(z.get(0), 0);
  EXPECT_EQ(z.get(1), 0);
  EXPECT_EQ(z.get(2), 1.5);
  EXPECT_EQ(z.get(3), -8);
  HostTensorBuf xi(ACL_INT32, {4}), zi(ACL_INT32, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMulNoNanGetWorkspaceSize(xi.get(), xi.get(), zi.get(), ws, ex);
            }),
            kParamInvalid);
}

TEST(MathVariants, BinaryVariantsBroadcast) {
  struct Case {
    std::string name;
    BinaryFn fn;
    std::function<double(double, double)> ref;
  };
  const std::vector<Case> cases = {
      {"MaximumV2", B_OP(MaximumV2), [](double a, double b) { return a > b ? a : b; }},
      {"MulV2", B_OP(MulV2), [](double a, double b) { return a * b; }},
      {"SubV2", B_OP(SubV2), [](double a, double b) { return a - b; }},
      {"RealDiv", B_OP(RealDiv), [](double a, double b) { return a / b; }},
      {"Pow", B_OP(Pow), [](double a, double b) { return std::exp(b * std::log(a)); }},
      {"Pow2", B_OP(Pow2), [](double a, double b) { return std::exp(b * std::log(a)); }}};
  std::mt19937 g(9);
  for (const Case& c : cases) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
      HostTensorBuf a(dt, {3, 4}), b(dt, {4}), o(dt, {3, 4});
      a.fillRandom(g, 0.5, 4);
      b.fillRandom(g, 0.5, 3);
      ASSERT_EQ(
          run([&](uint64_t* ws, aclOpExecutor** ex) { return c.fn(a.get(), b.get(), o.get(), ws, ex); }), 0)
          << c.name << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 12; ++i)
        expectNear(o.get(i), o.stored(c.ref(a.get(i), b.get(i % 4))), dt, c.name);
    }
  }
  // Pow on integers is exact (int8: 3^4 = 81, 2^7 wraps to -128)
  HostTensorBuf x(ACL_INT8, {3}), e(ACL_INT8, {3}), y(ACL_INT8, {3});
  const double xv[] = {3, 2, -2}, ev[] = {4, 7, 3};
  for (int i = 0; i < 3; ++i) {
    x.set(i, xv[i]);
    e.set(i, ev[i]);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnPowGetWorkspaceSize(x.get(), e.get(), y.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(y.get(0), 81);
  EXPECT_EQ(y.get(1), -128);
  EXPECT_EQ(y.get(2), -8);
  // int64 is not a MaximumV2 type; shapes that do not broadcast are refused
  HostTensorBuf l(ACL_INT64, {3}), lo(ACL_INT64, {3}), f3(ACL_FLOAT, {3}), f2(ACL_FLOAT, {2}),
      fo(ACL_FLOAT, {3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaximumV2GetWorkspaceSize(l.get(), l.get(), lo.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSubV2GetWorkspaceSize(f3.get(), f2.get(), fo.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMulV2GetWorkspaceSize(f3.get(), nullptr, fo.get(), ws, ex);
            }),
            kParamNull);
}

TEST(MathVariants, XLogYScalarSelfRoundDecimalsAndMaxN) {
  HostTensorBuf y(ACL_FLOAT, {4}), o(ACL_FLOAT, {4});
  const double yv[] = {1, 8, NAN, 0.5};
  for (int i = 0; i < 4; ++i) y.set(i, yv[i]);
  aclScalar* three = makeScalar(ACL_FLOAT, 3);
  aclScalar* zero = makeScalar(ACL_FLOAT, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnXLogYScalarSelfGetWorkspaceSize(three, y.get(), o.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) {
    if (std::isnan(yv[i]))
      EXPECT_TRUE(std::isnan(o.get(i)));
    else
      expectNear(o.get(i), 3 * std::log(yv[i]), ACL_FLOAT, "xlogy(3, y)");
  }
  y.set(0, 0);  // x = 0 gives 0 even for y = 0
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnXLogYScalarSelfGetWorkspaceSize(zero, y.get(), o.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(o.get(0), 0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnXLogYScalarSelfGetWorkspaceSize(nullptr, y.get(), o.get(), ws, ex);
            }),
            kParamNull);
  aclDestroyScalar(three);
  aclDestroyScalar(zero);

  // RoundDecimals: halves to even at the scaled value; negative decimals round to tens
  HostTensorBuf r(ACL_DOUBLE, {4}), ro(ACL_DOUBLE, {4});
  const double rv[] = {1.2345, -2.675, 0.125, 1234.5};
  for (int i = 0; i < 4; ++i) r.set(i, rv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRoundDecimalsGetWorkspaceSize(r.get(), 2, ro.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(ro.get(i), std::nearbyint(rv[i] * 100) / 100) << rv[i];
  HostTensorBuf ri(ACL_INT64, {3});
  const double iv[] = {1234, -1250, 1350};
  for (int i = 0; i < 3; ++i) ri.set(i, iv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceRoundDecimalsGetWorkspaceSize(ri.get(), -2, ws, ex);
            }),
            0);
  EXPECT_EQ(ri.get(0), 1200);
  EXPECT_EQ(ri.get(1), -1200);  // -12.5 to even
  EXPECT_EQ(ri.get(2), 1400);

  // MaxN / MinN over three tensors that broadcast to [2, 3]
  HostTensorBuf t0(ACL_FLOAT, {2, 3}), t1(ACL_FLOAT, {3}), t2(ACL_FLOAT, {2, 1}), mx(ACL_FLOAT, {2, 3}),
      mn(ACL_FLOAT, {2, 3});
  std::mt19937 g(2);
  t0.fillRandom(g, -5, 5);
  t1.fillRandom(g, -5, 5);
  t2.fillRandom(g, -5, 5);
  aclTensor* items[] = {listHandle(t0), listHandle(t1), listHandle(t2)};
  aclTensorList* list = aclCreateTensorList(items, 3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaxNGetWorkspaceSize(list, mx.get(), ws, ex);
            }),
            0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMinNGetWorkspaceSize(list, mn.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) {
    const double a = t0.get(i), b = t1.get(i % 3), c = t2.get(i / 3);
    EXPECT_EQ(mx.get(i), std::max({a, b, c}));
    EXPECT_EQ(mn.get(i), std::min({a, b, c}));
  }
  HostTensorBuf wrong(ACL_FLOAT, {3, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnMaxNGetWorkspaceSize(list, wrong.get(), ws, ex);
            }),
            kParamInvalid);
  aclDestroyTensorList(list);
}

TEST(MathVariants, CostIsTheStreamedBytes) {
  // TruncateDiv of two [64, 256] fp32 tensors: both read once, the result written once.
  HostTensorBuf a(ACL_FLOAT, {64, 256}), b(ACL_FLOAT, {64, 256}), o(ACL_FLOAT, {64, 256});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnTruncateDivGetWorkspaceSize(a.get(), b.get(), o.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 64 * 256 * 4);
  EXPECT_EQ(c.written, 64u * 256 * 4);
  // MaxN of three reads all three
  HostTensorBuf t(ACL_FLOAT16, {1024});
  aclTensor* items[] = {listHandle(t), listHandle(t), listHandle(t)};
  aclTensorList* list = aclCreateTensorList(items, 3);
  HostTensorBuf out(ACL_FLOAT16, {1024});
  ASSERT_EQ(aclnnMaxNGetWorkspaceSize(list, out.get(), &ws, &ex), 0);
  const Charged m = chargedBytes(ex);
  EXPECT_EQ(m.read, 3u * 1024 * 2);
  EXPECT_EQ(m.written, 1024u * 2);
  aclDestroyTensorList(list);
}
