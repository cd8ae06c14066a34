// The elementwise one-tensor family (runtime/aclnn/ops/unary_math.cpp): every operator against
// its public definition evaluated in fp64 in the test, in fp32/fp16/bf16 where its doc accepts
// them, on dense and strided views, in place, with integer inputs promoted to a floating out;
// the documented error codes; and the cost model's bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_test_util.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_digamma.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_erfc.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_lgamma.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_signbit.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_softsign.h"
#include "aclnnop/aclnn_square.h"
#include "aclnnop/aclnn_squared_relu.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_trunc.h"
#include "runtime/aclnn/base/executor.h"

using namespace aclnn_test;

namespace {

constexpr int kParamNull = 161001, kParamInvalid = 161002;

using OutOfPlace = std::function<int(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)>;
using InPlace = std::function<int(aclTensor*, uint64_t*, aclOpExecutor**)>;

struct Case {
  std::string name;
  OutOfPlace op;
  InPlace inplace;  // empty: no in-place form
  std::function<double(double)> ref;
  double lo, hi;
  std::vector<aclDataType> types;  // floating types the doc accepts
  bool intInput = true;            // an integer input computes into a floating out
};

const double kPi = std::acos(-1.0);

double digammaRef(double x) {  // the derivative of ln Gamma by central differences
  const double h = 1e-5;
  return (std::lgamma(x + h) - std::lgamma(x - h)) / (2 * h);
}

#define OOP(Name)                                                        \
  [](const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    return aclnn##Name##GetWorkspaceSize(s, o, w, e);                    \
  }
#define INP(Name) \
  [](aclTensor* s, uint64_t* w, aclOpExecutor** e) { return aclnnInplace##Name##GetWorkspaceSize(s, w, e); }

std::vector<Case> cases() {
  const std::vector<aclDataType> all = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
  const std::vector<aclDataType> noBf16 = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
  const std::vector<aclDataType> nn = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  return {
      {"Sin", OOP(Sin), INP(Sin), [](double x) { return std::sin(x); }, -6, 6, all},
      {"Cos", OOP(Cos), INP(Cos), [](double x) { return std::cos(x); }, -6, 6, all},
      {"Tan", OOP(Tan), INP(Tan), [](double x) { return std::sin(x) / std::cos(x); }, -1.2, 1.2, all},
      {"Asin", OOP(Asin), INP(Asin), [](double x) { return std::atan2(x, std::sqrt(1 - x * x)); }, -0.99,
       0.99, noBf16},
      {"Acos", OOP(Acos), INP(Acos), [](double x) { return kPi / 2 - std::asin(x); }, -0.99, 0.99, noBf16},
      {"Atan", OOP(Atan), INP(Atan), [](double x) { return std::atan2(x, 1.0); }, -8, 8, all},
      {"Sinh", OOP(Sinh), INP(Sinh), [](double x) { return (std::exp(x) - std::exp(-x)) / 2; }, -4, 4, all},
      {"Cosh", OOP(Cosh), INP(Cosh), [](double x) { return (std::exp(x) + std::exp(-x)) / 2; }, -4, 4, noBf16,
       false},
      {"Asinh", OOP(Asinh), INP(Asinh), [](double x) { return std::log(x + std::sqrt(x * x + 1)); }, -5, 5,
       noBf16},
      {"Acosh", OOP(Acosh), INP(Acosh), [](double x) { return std::log(x + std::sqrt(x * x - 1)); }, 1.1, 9,
       noBf16, false},
      {"Atanh", OOP(Atanh), INP(Atanh), [](double x) { return 0.5 * std::log((1 + x) / (1 - x)); }, -0.9, 0.9,
       noBf16},
      {"Ceil", OOP(Ceil), INP(Ceil), [](double x) { return -std::floor(-x); }, -9, 9, all, false},
      {"Floor", OOP(Floor), INP(Floor), [](double x) { return std::floor(x); }, -9, 9, all},
      {"Trunc", OOP(Trunc), INP(Trunc), [](double x) { return x < 0 ? -std::floor(-x) : std::floor(x); }, -9,
       9, nn, false},
      {"Round", OOP(Round), INP(Round),
       [](double x) {  // halves to the even neighbour
         const double f = std::floor(x), d = x - f;
         return d > 0.5 ? f + 1 : d < 0.5 ? f : (std::fmod(f, 2) == 0 ? f : f + 1);
       },
       -9, 9, all},
      {"Reciprocal", OOP(Reciprocal), INP(Reciprocal), [](double x) { return 1 / x; }, 0.2, 9, all},
      {"Sign",
       [](const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnSignGetWorkspaceSize(s, o, w, e);
       },
       nullptr, [](double x) { return x > 0   ? 1.0
                                      : x < 0 ? -1.0
                                              : 0.0; }, -3, 3, all},
      {"Expm1", OOP(Expm1), INP(Expm1), [](double x) { return std::exp(x) - 1; }, -3, 3, all},
      {"Log1p", OOP(Log1p), INP(Log1p), [](double x) { return std::log(1 + x); }, -0.9, 9, all},
      {"Erf", OOP(Erf), INP(Erf), [](double x) { return 1 - std::erfc(x); }, -3, 3, noBf16},
      {"Erfc", OOP(Erfc), INP(Erfc), [](double x) { return 1 - std::erf(x); }, -3, 3, noBf16},
      {"Lgamma", OOP(Lgamma), nullptr, [](double x) { return std::log(std::fabs(std::tgamma(x))); }, 0.2, 8,
       noBf16, false},
      {"Digamma", OOP(Digamma), nullptr, digammaRef, 0.2, 8, noBf16, false},
      {"Mish", OOP(Mish), INP(Mish), [](double x) { return x * std::tanh(std::log(1 + std::exp(x))); }, -6, 6,
       nn, false},
      {"Hardswish", OOP(Hardswish), INP(Hardswish),
       [](double x) { return x <= -3  ? 0
                             : x >= 3 ? x
                                      : x * (x + 3) / 6; }, -5, 5, nn, false},
      {"Hardsigmoid", OOP(Hardsigmoid), INP(Hardsigmoid),
       [](double x) { return x <= -3  ? 0
                             : x >= 3 ? 1
                                      : x / 6 + 0.5; }, -5, 5, nn, false},
      {"Selu", OOP(Selu), INP(Selu),
       [](double x) {
         return x > 0 ? 1.0507009873554804934 * x
                      : 1.0507009873554804934 * 1.6732632423543772848 * (std::exp(x) - 1);
       },
       -4, 4, nn, false},
      {"SquaredRelu", OOP(SquaredRelu), nullptr, [](double x) { return x > 0 ? x * x : 0; }, -4, 4, nn,
       false},
      {"LogSigmoid", OOP(LogSigmoid), nullptr, [](double x) { return -std::log(1 + std::exp(-x)); }, -8, 8,
       nn, false},
      {"FastGelu", OOP(FastGelu), nullptr, [](double x) { return x * (0.5 + 0.5 * std::tanh(0.851 * x)); },
       -8, 8, nn, false},
      {"Softsign", OOP(Softsign), nullptr, [](double x) { return x < 0 ? x / (1 - x) : x / (1 + x); }, -9, 9,
       nn, false},
  };
}

std::string label(aclDataType dt) { return std::to_string(static_cast<int>(dt)); }

}  // namespace

// Dense and strided inputs of every accepted floating type, out-of-place and in place.
TEST(UnaryMath, MatchesDefinitions) {
  std::mt19937 g(28);
  for (const Case& c : cases()) {
    for (aclDataType dt : c.types) {
      const std::string what = c.name + " dtype " + label(dt);
      // self is a transposed view (strides {1, 7}) of a 7 x 5 buffer; out is dense.
      HostTensorBuf x(dt, {5, 7}, {1, 5}, 0), y(dt, {5, 7});
      x.fillRandom(g, c.lo, c.hi);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(x.get(), y.get(), ws, ex); }), 0)
          << what << ": " << aclGetRecentErrMsg();
      for (int64_t i = 0; i < x.numel(); ++i) {
        const double want = y.stored(c.ref(x.get(i)));
        expectNear(y.get(i), want, dt, what + " at " + std::to_string(x.get(i)));
      }
      if (!c.inplace) continue;
      HostTensorBuf z(dt, {3, 4});
      z.fillRandom(g, c.lo, c.hi);
      std::vector<double> before(12);
      for (int i = 0; i < 12; ++i) before[i] = z.get(i);
      ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.inplace(z.get(), ws, ex); }), 0) << what;
      for (int i = 0; i < 12; ++i) expectNear(z.get(i), z.stored(c.ref(before[i])), dt, what + " in place");
    }
  }
}

// Integer inputs are computed as floats into a floating out; an integer out is refused.
TEST(UnaryMath, IntegerInputsPromote) {
  for (const Case& c : cases()) {
    if (!c.intInput || c.name == "Floor" || c.name == "Round" || c.name == "Sign") continue;
    HostTensorBuf x(ACL_INT64, {6}), y(ACL_FLOAT, {6}), bad(ACL_INT64, {6});
    for (int i = 0; i < 6; ++i) x.set(i, c.lo < 0 && c.lo > -1 ? 0 : std::ceil(c.lo) + i % 2);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(x.get(), y.get(), ws, ex); }), 0)
        << c.name << ": " << aclGetRecentErrMsg();
    for (int i = 0; i < 6; ++i) expectNear(y.get(i), y.stored(c.ref(x.get(i))), ACL_FLOAT, c.name + " int");
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(x.get(), bad.get(), ws, ex); }),
              kParamInvalid)
        << c.name;
  }
  // Rounding and sign keep integers exactly, in their own type.
  HostTensorBuf x(ACL_INT32, {5}), y(ACL_INT32, {5});
  const double v[] = {-7, -1, 0, 3, 2147483000};
  for (int i = 0; i < 5; ++i) x.set(i, v[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnFloorGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y.get(i), v[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSignGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y.get(i), v[i] > 0 ? 1 : v[i] < 0 ? -1 : 0);
}

// Values at the edges of each domain follow IEEE and the public definitions.
TEST(UnaryMath, SpecialValues) {
  const double inf = INFINITY;
  HostTensorBuf x(ACL_FLOAT, {6}), y(ACL_FLOAT, {6});
  const double in[] = {-1, 1, 0.5, -0.25, 2, 0};
  for (int i = 0; i < 6; ++i) x.set(i, in[i]);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnErfinvGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(y.get(0), -inf);
  EXPECT_EQ(y.get(1), inf);
  for (int i = 2; i < 4; ++i) EXPECT_NEAR(std::erf(y.get(i)), in[i], 1e-6);  // erf(erfinv(x)) = x
  EXPECT_TRUE(std::isnan(y.get(4)));
  EXPECT_EQ(y.get(5), 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnDigammaGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(y.get(0)));                               // a pole at -1
  EXPECT_NEAR(y.get(1), -0.5772156649, 1e-6);                      // -Euler's gamma
  EXPECT_NEAR(y.get(2), -0.5772156649 - 2 * std::log(2.0), 1e-6);  // psi(1/2)
  EXPECT_EQ(y.get(5), -inf);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAtanhGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(y.get(0), -inf);
  EXPECT_EQ(y.get(1), inf);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAsinGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(y.get(4)));
  x.set(0, NAN);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSignGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  EXPECT_TRUE(std::isnan(y.get(0)));
  x.set(0, 2.5);
  x.set(1, -0.5);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnRoundGetWorkspaceSize(x.get(), y.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(y.get(0), 2);
  EXPECT_EQ(y.get(1), 0);
}

TEST(UnaryMath, ErrorCodes) {
  HostTensorBuf x(ACL_FLOAT, {2, 3}), wrongShape(ACL_FLOAT, {3, 2}), i8(ACL_INT8, {2, 3});
  HostTensorBuf bf(ACL_BF16, {2, 3}), bfOut(ACL_BF16, {2, 3});
  for (const Case& c : cases()) {
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(nullptr, x.get(), ws, ex); }),
              kParamNull)
        << c.name;
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(x.get(), nullptr, ws, ex); }),
              kParamNull)
        << c.name;
    EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(x.get(), wrongShape.get(), ws, ex); }),
              kParamInvalid)
        << c.name;
    if (!c.intInput) {  // an int8 input is not in these operators' lists
      EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(i8.get(), x.get(), ws, ex); }),
                kParamInvalid)
          << c.name;
    }
    if (std::find(c.types.begin(), c.types.end(), ACL_BF16) == c.types.end()) {
      EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.op(bf.get(), bfOut.get(), ws, ex); }),
                kParamInvalid)
          << c.name;
    }
    if (c.inplace) {
      EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) { return c.inplace(nullptr, ws, ex); }), kParamNull)
          << c.name;
    }
  }
}

// Empty tensors are accepted and write nothing; the cost model reads self and writes out once,
// with the passes each function costs.
TEST(UnaryMath, EmptyTensorsAndCost) {
  HostTensorBuf e(ACL_FLOAT, {0, 3}), eo(ACL_FLOAT, {0, 3});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSinGetWorkspaceSize(e.get(), eo.get(), ws, ex);
            }),
            0);
  const int64_t n = 64 * 1000;
  HostTensorBuf x(ACL_FLOAT16, {64, 1000}), y(ACL_FLOAT16, {64, 1000});
  auto bytes = [&](const OutOfPlace& op) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(op(x.get(), y.get(), &ws, &ex), 0);
    const Charged c = chargedBytes(ex);
    return std::vector<uint64_t>{c.read, c.written, c.vector};
  };
  const auto sin = bytes(OOP(Sin)), ceil = bytes(OOP(Ceil));
  EXPECT_EQ(sin[0], n * 2u);
  EXPECT_EQ(sin[1], n * 2u);
  EXPECT_EQ(ceil[0], n * 2u);
  EXPECT_GT(sin[2], ceil[2]);  // a series costs more vector work than one instruction
}

// Predicates write bool (IsFinite, IsPosInf, IsNegInf, Signbit) or 1/0 in any type (LogicalNot).
TEST(UnaryMath, PredicatesAndSquare) {
  const double inf = INFINITY;
  const double in[] = {1.5, -0.0, inf, -inf, NAN, -2, 0};
  const bool finite[] = {true, true, false, false, false, true, true};
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    HostTensorBuf x(dt, {7}), b(ACL_BOOL, {7});
    for (int i = 0; i < 7; ++i) x.set(i, in[i]);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIsFiniteGetWorkspaceSize(x.get(), b.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 7; ++i) EXPECT_EQ(b.get(i), finite[i] ? 1 : 0) << i;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIsPosInfGetWorkspaceSize(x.get(), b.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 7; ++i) EXPECT_EQ(b.get(i), i == 2 ? 1 : 0) << i;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnIsNegInfGetWorkspaceSize(x.get(), b.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 7; ++i) EXPECT_EQ(b.get(i), i == 3 ? 1 : 0) << i;
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnSignbitGetWorkspaceSize(x.get(), b.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 7; ++i) EXPECT_EQ(b.get(i), i == 1 || i == 3 || i == 5 ? 1 : 0) << i;  // -0.0 counts
    HostTensorBuf f(ACL_FLOAT, {7});
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnLogicalNotGetWorkspaceSize(x.get(), f.get(), ws, ex);
              }),
              0);
    for (int i = 0; i < 7; ++i) EXPECT_EQ(f.get(i), i == 1 || i == 6 ? 1 : 0) << i;  // nan is true
  }
  // Integers: never infinite; sign bit of the negatives; logical not in place keeps the type.
  HostTensorBuf n(ACL_INT32, {3}), b(ACL_BOOL, {3}), f32(ACL_FLOAT, {3});
  n.set(0, -4);
  n.set(1, 0);
  n.set(2, 70000);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSignbitGetWorkspaceSize(n.get(), b.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(b.get(0), 1);
  EXPECT_EQ(b.get(2), 0);
  // Signbit's out may be any type bool casts to (ops-math signbit's own example writes fp32).
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSignbitGetWorkspaceSize(n.get(), f32.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(f32.get(0), 1);
  EXPECT_EQ(f32.get(1), 0);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsPosInfGetWorkspaceSize(n.get(), b.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(b.get(2), 0);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsFiniteGetWorkspaceSize(n.get(), b.get(), ws, ex);
            }),
            kParamInvalid);  // floats only
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnIsPosInfGetWorkspaceSize(f32.get(), f32.get(), ws, ex);
            }),
            kParamInvalid);  // out must be bool
  HostTensorBuf sq(ACL_INT32, {3});
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSquareGetWorkspaceSize(n.get(), sq.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(sq.get(0), 16);
  EXPECT_EQ(sq.get(2), static_cast<double>(static_cast<int32_t>(70000u * 70000u)));  // wraps in int32
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceLogicalNotGetWorkspaceSize(n.get(), ws, ex);
            }),
            0);
  EXPECT_EQ(n.get(0), 0);
  EXPECT_EQ(n.get(1), 1);
}

// BitwiseNot: two's-complement negation of every integer type (-x - 1, wrapped to the type),
// logical negation of bool; floats are refused.
TEST(UnaryMath, BitwiseNot) {
  const std::vector<double> vals = {0, 1, -1, 5, -128, 127, 100, -7};
  for (aclDataType dt : {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    HostTensorBuf x(dt, {2, 4}, {1, 2}, 0), y(dt, {2, 4});
    for (int i = 0; i < 8; ++i) x.set(i, dt == ACL_UINT8 ? std::fabs(vals[i]) : vals[i]);
    ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnBitwiseNotGetWorkspaceSize(x.get(), y.get(), ws, ex);
              }),
              0)
        << aclGetRecentErrMsg();
    for (int i = 0; i < 8; ++i) {
      const double v = x.get(i);
      const double want = dt == ACL_UINT8 ? 255 - v : -v - 1;
      EXPECT_EQ(y.get(i), want) << "dtype " << label(dt) << " of " << v;
    }
  }
  HostTensorBuf b(ACL_BOOL, {4}), nb(ACL_BOOL, {4});
  for (int i = 0; i < 4; ++i) b.set(i, i % 2);
  ASSERT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBitwiseNotGetWorkspaceSize(b.get(), nb.get(), ws, ex);
            }),
            0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(nb.get(i), i % 2 == 0 ? 1.0 : 0.0) << i;
  HostTensorBuf f(ACL_FLOAT, {4}), fo(ACL_FLOAT, {4});
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBitwiseNotGetWorkspaceSize(f.get(), fo.get(), ws, ex);
            }),
            kParamInvalid);
  EXPECT_EQ(run([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnBitwiseNotGetWorkspaceSize(nullptr, fo.get(), ws, ex);
            }),
            kParamNull);
}
