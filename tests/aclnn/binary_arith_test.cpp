// Floor division, fmod, remainder, xlogy and the bitwise operators on the binary engine: values
// against definitions written in the test for floats and integers of both signs (broadcast),
// the scalar and in-place forms, zero divisors, the error codes and the bytes charged.
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
#include "aclnnop/aclnn_add_relu.h"
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_gcd.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using TensorOp =
    std::function<int(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)>;
using ScalarOp =
    std::function<int(const aclTensor*, const aclScalar*, aclTensor*, uint64_t*, aclOpExecutor**)>;
using ScalarPtr = std::unique_ptr<aclScalar, decltype(&aclDestroyScalar)>;

struct Arith {
  std::string name;
  TensorOp tensor;
  ScalarOp scalar;
  std::function<double(double, double)> ref;  // on the values as stored
  bool floats = true;                         // floats accepted (the bitwise ones take integers only)
};

// Floor of a/b, and the remainders, from their definitions on doubles (exact for these integers).
double floorDiv(double a, double b) { return std::floor(a / b); }
double truncRem(double a, double b) { return a - std::trunc(a / b) * b; }
double floorRem(double a, double b) { return a - std::floor(a / b) * b; }

#define T_OP(Name)                                                                           \
  [](const aclTensor* a, const aclTensor* b, aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    return aclnn##Name##GetWorkspaceSize(a, b, o, w, e);                                     \
  }
#define S_OP(Name)                                                                           \
  [](const aclTensor* a, const aclScalar* b, aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    return aclnn##Name##GetWorkspaceSize(a, b, o, w, e);                                     \
  }

std::vector<Arith> ops() {
  return {
      {"FloorDivide", T_OP(FloorDivide), S_OP(FloorDivides), floorDiv},
      {"Fmod", T_OP(FmodTensor), S_OP(FmodScalar), truncRem},
      {"Remainder", T_OP(RemainderTensorTensor), S_OP(RemainderTensorScalar), floorRem},
      {"BitwiseAnd", T_OP(BitwiseAndTensor), S_OP(BitwiseAndScalar),
       [](double a, double b) { return double(int64_t(a) & int64_t(b)); }, false},
      {"BitwiseOr", T_OP(BitwiseOrTensor), S_OP(BitwiseOrScalar),
       [](double a, double b) { return double(int64_t(a) | int64_t(b)); }, false},
      {"BitwiseXor", T_OP(BitwiseXorTensor), S_OP(BitwiseXorScalar),
       [](double a, double b) { return double(int64_t(a) ^ int64_t(b)); }, false},
  };
}

}  // namespace

TEST(BinaryArith, IntegersAndFloatsBroadcast) {
  std::mt19937 g(3);
  for (const Arith& op : ops()) {
    for (aclDataType dt : {ACL_INT32, ACL_INT64, ACL_INT8, ACL_FLOAT, ACL_DOUBLE}) {
      if (!op.floats && (dt == ACL_FLOAT || dt == ACL_DOUBLE)) continue;
      HostTensorBuf a(dt, {4, 5}), b(dt, {5}), out(dt, {4, 5});
      a.fillRandom(g, -50, 50);
      for (int i = 0; i < 5; ++i) b.set(i, (i % 2 ? -1 : 1) * (1 + i * 3));  // nonzero, both signs
      if (dt == ACL_FLOAT || dt == ACL_DOUBLE) a.set(0, -7.5);
      const std::string what = op.name + " dtype " + std::to_string(dt);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                  return op.tensor(a.get(), b.get(), out.get(), ws, ex);
                }),
                0)
          << what << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 20; ++i) {
        expectNear(out.get(i), out.stored(op.ref(a.get(i), b.get(i % 5))), dt, what);
      }
    }
  }
}

TEST(BinaryArith, ScalarAndInplaceForms) {
  for (const Arith& op : ops()) {
    HostTensorBuf a(ACL_INT32, {6}), out(ACL_INT32, {6});
    const double v[] = {-9, -4, -1, 0, 5, 11};
    for (int i = 0; i < 6; ++i) a.set(i, v[i]);
    ScalarPtr three(makeScalar(ACL_INT64, 3), aclDestroyScalar);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return op.scalar(a.get(), three.get(), out.get(), ws, ex);
              }),
              0)
        << op.name;
    for (int i = 0; i < 6; ++i) EXPECT_EQ(out.get(i), op.ref(v[i], 3)) << op.name << " of " << v[i];
    // A float scalar promotes an integer tensor to fp32 (the bitwise operators refuse it).
    HostTensorBuf fo(ACL_FLOAT, {6});
    ScalarPtr half(makeScalar(ACL_FLOAT, 2.5), aclDestroyScalar);
    const int st = run(
        [&](uint64_t* ws, aclOpExecutor** ex) { return op.scalar(a.get(), half.get(), fo.get(), ws, ex); });
    if (op.floats) {
      ASSERT_EQ(st, 0) << op.name;
      for (int i = 0; i < 6; ++i) expectNear(fo.get(i), op.ref(v[i], 2.5), ACL_FLOAT, op.name + " by 2.5");
    } else {
      EXPECT_EQ(st, kParamInvalid) << op.name;
    }
  }
  // In place: selfRef receives the result in its own type.
  HostTensorBuf x(ACL_INT64, {2, 3}), y(ACL_INT64, {3});
  const double xv[] = {7, -7, 8, 9, -10, 0}, yv[] = {2, 3, -4};
  for (int i = 0; i < 6; ++i) x.set(i, xv[i]);
  for (int i = 0; i < 3; ++i) y.set(i, yv[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceRemainderTensorTensorGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(x.get(i), floorRem(xv[i], yv[i % 3]));
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceBitwiseXorTensorGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(x.get(i), double(int64_t(floorRem(xv[i], yv[i % 3])) ^ int64_t(yv[i % 3])));
}

TEST(BinaryArith, ZeroDivisorsBoolsAndXlogy) {
  // Integer division by zero gives 0 (no device error is modelled); floats follow IEEE.
  HostTensorBuf a(ACL_INT32, {2}), z(ACL_INT32, {2}), o(ACL_INT32, {2});
  a.set(0, 5);
  a.set(1, -5);
  z.set(0, 0);
  z.set(1, 0);
  for (const Arith& op : ops()) {
    if (!op.floats) continue;
    ASSERT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return op.tensor(a.get(), z.get(), o.get(), ws, ex); }),
        0);
    EXPECT_EQ(o.get(0), 0) << op.name;
  }
  HostTensorBuf f(ACL_FLOAT, {1}), fz(ACL_FLOAT, {1}), fo(ACL_FLOAT, {1});
  f.set(0, 1);
  fz.set(0, 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFloorDivideGetWorkspaceSize(f.get(), fz.get(), fo.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(fo.get(0), INFINITY);
  // Bool operands: and/or/xor as logic.
  HostTensorBuf p(ACL_BOOL, {4}), q(ACL_BOOL, {4}), r(ACL_BOOL, {4});
  for (int i = 0; i < 4; ++i) {
    p.set(i, i & 1);
    q.set(i, (i >> 1) & 1);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBitwiseAndTensorGetWorkspaceSize(p.get(), q.get(), r.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r.get(i), i == 3 ? 1 : 0);
  // xlogy: 0 where x is 0 even for y = 0; nan where y is nan; integers in fp32.
  HostTensorBuf x(ACL_FLOAT, {4}), y(ACL_FLOAT, {4}), out(ACL_FLOAT, {4});
  const double xv[] = {0, 2, 3, 0}, yv[] = {0, 8, NAN, 5};
  for (int i = 0; i < 4; ++i) {
    x.set(i, xv[i]);
    y.set(i, yv[i]);
  }
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnXLogYTensorGetWorkspaceSize(x.get(), y.get(), out.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(out.get(0), 0);
  EXPECT_NEAR(out.get(1), 2 * std::log(8.0), 1e-6);
  EXPECT_TRUE(std::isnan(out.get(2)));
  EXPECT_EQ(out.get(3), 0);
  HostTensorBuf xi(ACL_INT32, {2}), oi(ACL_FLOAT, {2}), bad(ACL_INT32, {2});
  xi.set(0, 3);
  xi.set(1, 0);
  ScalarPtr e(makeScalar(ACL_FLOAT, std::exp(1.0)), aclDestroyScalar);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnXLogYScalarOtherGetWorkspaceSize(xi.get(), e.get(), oi.get(), ws, ex);
            }),
            0);
  EXPECT_NEAR(oi.get(0), 3, 1e-6);
  EXPECT_EQ(oi.get(1), 0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnXLogYTensorGetWorkspaceSize(xi.get(), xi.get(), bad.get(), ws, ex);
            }),
            kParamInvalid);  // the fp32 result cannot go to an int32 out
}

TEST(BinaryArith, ErrorsAndBytes) {
  HostTensorBuf f(ACL_FLOAT, {2, 3}), g(ACL_FLOAT, {4}), o(ACL_FLOAT, {2, 3});
  for (const Arith& op : ops()) {
    EXPECT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return op.tensor(nullptr, f.get(), o.get(), ws, ex); }),
        kParamNull);
    EXPECT_EQ(
        run([&](uint64_t* ws, aclOpExecutor** ex) { return op.tensor(f.get(), g.get(), o.get(), ws, ex); }),
        kParamInvalid)
        << op.name;
    if (!op.floats) {
      EXPECT_EQ(
          run([&](uint64_t* ws, aclOpExecutor** ex) { return op.tensor(f.get(), f.get(), o.get(), ws, ex); }),
          kParamInvalid)
          << op.name;
    }
  }
  HostTensorBuf a(ACL_INT32, {64, 1000}), b(ACL_INT32, {64, 1000}), out(ACL_INT32, {64, 1000});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnFmodTensorGetWorkspaceSize(a.get(), b.get(), out.get(), &ws, &ex), 0);
  const Charged c = chargedBytes(ex);
  EXPECT_EQ(c.read, 2u * 64000 * 4);
  EXPECT_EQ(c.written, 64000u * 4);
}

// AddRelu: max(self + alpha * other, 0) with other broadcast, in the doc's types; in place; NaN
// passes; alpha is required; double is not in the doc's list.
TEST(BinaryArith, AddRelu) {
  std::mt19937 g(5);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_INT64}) {
    const bool fl = dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16;
    const double alpha = fl ? 1.5 : 2;
    ScalarPtr al(makeScalar(fl ? ACL_FLOAT : ACL_INT64, alpha), aclDestroyScalar);
    HostTensorBuf a(dt, {3, 4}, {1, 3}, 0), b(dt, {4}), out(dt, {3, 4});
    a.fillRandom(g, -20, 20);
    b.fillRandom(g, -10, 10);
    const std::string what = "AddRelu dtype " + std::to_string(dt);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnAddReluGetWorkspaceSize(a.get(), b.get(), al.get(), out.get(), ws, ex);
              }),
              0)
        << what << ": " << aclGetRecentErrMsg();
    for (int64_t i = 0; i < 12; ++i) {
      const double sum = a.get(i) + alpha * b.get(i % 4);
      expectNear(out.get(i), out.stored(sum > 0 ? sum : 0), dt, what);
    }
    HostTensorBuf c(dt, {3, 4});
    for (int64_t i = 0; i < 12; ++i) c.set(i, a.get(i));
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnInplaceAddReluGetWorkspaceSize(c.get(), b.get(), al.get(), ws, ex);
              }),
              0)
        << what;
    for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(c.get(i), out.get(i)) << what << " in place";
  }
  ScalarPtr one(makeScalar(ACL_FLOAT, 1), aclDestroyScalar);
  HostTensorBuf n(ACL_FLOAT, {2}), z(ACL_FLOAT, {2}), o(ACL_FLOAT, {2}), d(ACL_DOUBLE, {2});
  n.set(0, NAN);
  n.set(1, -3);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddReluGetWorkspaceSize(n.get(), z.get(), one.get(), o.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(o.get(0)));
  EXPECT_EQ(o.get(1), 0.0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddReluGetWorkspaceSize(n.get(), z.get(), nullptr, o.get(), ws, ex);
            }),
            kParamNull);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddReluGetWorkspaceSize(d.get(), d.get(), one.get(), d.get(), ws, ex);
            }),
            kParamInvalid);
}

// LogAddExp / LogAddExp2 against ln(e^a + e^b) and log2(2^a + 2^b) written directly (inputs
// small enough not to overflow), with broadcast, integer inputs into a float out, the infinities
// and a non-float out refused; Gcd against Euclid's algorithm in the test, signs and zeros.
TEST(BinaryArith, LogAddExpAndGcd) {
  std::mt19937 g(9);
  for (bool two : {false, true}) {
    auto op = [two](const aclTensor* a, const aclTensor* b, aclTensor* o) {
      return run([&](uint64_t* ws, aclOpExecutor** ex) {
        return two ? aclnnLogAddExp2GetWorkspaceSize(a, b, o, ws, ex)
                   : aclnnLogAddExpGetWorkspaceSize(a, b, o, ws, ex);
      });
    };
    const auto ref = [two](double a, double b) {
      return two ? std::log2(std::exp2(a) + std::exp2(b)) : std::log(std::exp(a) + std::exp(b));
    };
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
      HostTensorBuf a(dt, {3, 4}), b(dt, {4}), out(dt == ACL_INT32 ? ACL_FLOAT : dt, {3, 4});
      a.fillRandom(g, -20, 20);
      b.fillRandom(g, -20, 20);
      const std::string what = std::string(two ? "LogAddExp2" : "LogAddExp") + " dtype " + std::to_string(dt);
      ASSERT_EQ(op(a.get(), b.get(), out.get()), 0) << what << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < 12; ++i)
        expectNear(out.get(i), out.stored(ref(a.get(i), b.get(i % 4))), out.dtype(), what);
    }
    HostTensorBuf x(ACL_FLOAT, {3}), y(ACL_FLOAT, {3}), o(ACL_FLOAT, {3}), io(ACL_INT32, {3});
    const double inf = INFINITY;
    x.set(0, inf), y.set(0, inf);
    x.set(1, -inf), y.set(1, -inf);
    x.set(2, 1000), y.set(2, 1000);  // no overflow: 1000 + ln 2 (log2: 1001)
    ASSERT_EQ(op(x.get(), y.get(), o.get()), 0);
    EXPECT_EQ(o.get(0), inf);
    EXPECT_EQ(o.get(1), -inf);
    EXPECT_NEAR(o.get(2), two ? 1001 : 1000 + std::log(2.0), 1e-3);
    EXPECT_EQ(op(x.get(), y.get(), io.get()), kParamInvalid);
    EXPECT_EQ(op(nullptr, y.get(), o.get()), kParamNull);
  }
  const auto euclid = [](int64_t a, int64_t b) {
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b != 0) {
      const int64_t t = a % b;
      a = b;
      b = t;
    }
    return a;
  };
  for (aclDataType dt : {ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8}) {
    HostTensorBuf a(dt, {2, 6}), b(dt, {6}), out(dt, {2, 6});
    a.fillRandom(g, -100, 100);
    const double bv[6] = {0, 12, -18, 7, 1, 64};
    for (int i = 0; i < 6; ++i) b.set(i, bv[i]);
    a.set(0, 0);  // gcd(0, 0) = 0
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnGcdGetWorkspaceSize(a.get(), b.get(), out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < 12; ++i) {
      const auto want = euclid(static_cast<int64_t>(a.get(i)), static_cast<int64_t>(b.get(i % 6)));
      EXPECT_EQ(out.get(i), static_cast<double>(want)) << "gcd(" << a.get(i) << ", " << b.get(i % 6) << ")";
    }
  }
  HostTensorBuf f(ACL_FLOAT, {2}), fo(ACL_FLOAT, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnGcdGetWorkspaceSize(f.get(), f.get(), fo.get(), ws, ex);
            }),
            kParamInvalid);
}

// Shifts: self * 2^s and floor(self / 2^s) for counts below the type's width, broadcast over a
// row of counts; the scalar form; a negative count or one of the type's width gives 0 (left) or
// the sign fill (right); bits past an int8's width are lost; floats are refused.
TEST(BinaryArith, Shifts) {
  std::mt19937 g(11);
  for (aclDataType dt : {ACL_INT32, ACL_INT64, ACL_INT16}) {
    const double width = dt == ACL_INT64 ? 64 : dt == ACL_INT32 ? 32 : 16;
    const double counts[6] = {0, 1, 3, 6, -2, width};
    HostTensorBuf a(dt, {3, 6}), s(dt, {6}), l(dt, {3, 6}), r(dt, {3, 6});
    a.fillRandom(g, -300, 300);
    for (int i = 0; i < 6; ++i) s.set(i, counts[i]);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLeftShiftGetWorkspaceSize(a.get(), s.get(), l.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnRightShiftGetWorkspaceSize(a.get(), s.get(), r.get(), ws, ex);
              }),
              0);
    for (int64_t i = 0; i < 18; ++i) {
      const double v = a.get(i), c = counts[i % 6];
      const bool valid = c >= 0 && c < width;
      EXPECT_EQ(l.get(i), valid ? v * std::exp2(c) : 0.0) << v << " << " << c;
      EXPECT_EQ(r.get(i), valid ? std::floor(v / std::exp2(c)) : (v < 0 ? -1.0 : 0.0)) << v << " >> " << c;
    }
  }
  HostTensorBuf b(ACL_INT8, {2}), o(ACL_INT8, {2});
  b.set(0, 100);
  b.set(1, -3);
  ScalarPtr one(makeScalar(ACL_INT64, 1), aclDestroyScalar),
      half(makeScalar(ACL_FLOAT, 0.5), aclDestroyScalar);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLeftShiftsGetWorkspaceSize(b.get(), one.get(), o.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(o.get(0), -56.0);  // 200 wrapped to int8
  EXPECT_EQ(o.get(1), -6.0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnLeftShiftsGetWorkspaceSize(b.get(), half.get(), o.get(), ws, ex);
            }),
            kParamInvalid);
  HostTensorBuf f(ACL_FLOAT, {2}), fo(ACL_FLOAT, {2});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRightShiftGetWorkspaceSize(f.get(), f.get(), fo.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRightShiftGetWorkspaceSize(nullptr, f.get(), fo.get(), ws, ex);
            }),
            kParamNull);
}

// Heaviside: 0 below zero, 1 above, values (broadcast) at ±0; NaN stays NaN; integers refused.
TEST(BinaryArith, Heaviside) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    HostTensorBuf x(dt, {2, 4}), v(dt, {4}), out(dt, {2, 4});
    const double xs[8] = {-2, 0, 3, -0.0, 0, 0.5, -1e-3, 0};
    for (int i = 0; i < 8; ++i) x.set(i, xs[i]);
    for (int i = 0; i < 4; ++i) v.set(i, 0.25 * (i + 1));
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnHeavisideGetWorkspaceSize(x.get(), v.get(), out.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int i = 0; i < 8; ++i) {
      const double want = xs[i] < 0 ? 0 : xs[i] > 0 ? 1 : 0.25 * (i % 4 + 1);
      EXPECT_EQ(out.get(i), want) << "heaviside(" << xs[i] << ") dtype " << dt;
    }
  }
  HostTensorBuf n(ACL_FLOAT, {1}), nv(ACL_FLOAT, {1}), no(ACL_FLOAT, {1}), i32(ACL_INT32, {1});
  n.set(0, NAN);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnHeavisideGetWorkspaceSize(n.get(), nv.get(), no.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(no.get(0)));
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnHeavisideGetWorkspaceSize(i32.get(), i32.get(), i32.get(), ws, ex);
            }),
            kParamInvalid);
}
