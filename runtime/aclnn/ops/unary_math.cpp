// Elementwise math of one tensor, the rest of the family (issue 28): trigonometric, hyperbolic,
// rounding, error and gamma functions, and the activations that are a function of x alone.
// Each operator is an entry here (its public definition, accepted types, function, vector
// passes) and its header in include/aclnnop; the unary engine (unary_op.h) owns the checks,
// strided views, type casts, in-place forms and the cost model.
//
// Vector passes (cost model): 1 for a single vector instruction (rounding, reciprocal, sign),
// 2 for exp/ln-based ones as aclnnExp, 4 for functions of several exp/ln steps (as
// aclnnSigmoid/aclnnTanh), 8 for those the device evaluates as polynomial series with range
// reduction (trigonometric inverses, error and gamma functions).
#include <cmath>
#include <limits>

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
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_signbit.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinc.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_softsign.h"
#include "aclnnop/aclnn_square.h"
#include "aclnnop/aclnn_squared_relu.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_trunc.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Applies F::f to n values in place.
template <typename F, typename T>
void each(T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = F::f(v[i]);
}

// The definition of one entry: the functions for fp32 and fp64 (and integers, or nullptr).
template <typename F>
UnaryDef def(const OpInfo& info, int passes, void (*i64)(int64_t*, int64_t) = nullptr) {
  return UnaryDef{&info, each<F, float>, each<F, double>, i64, passes};
}

// Accepted types, from each operator's doc (ops-math math/<op>/docs, ops-nn activation/<op>/docs):
// inputs of an integer or bool type are computed as fp32 into a floating out.
const std::vector<aclDataType> kAnyReal = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                           ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::vector<aclDataType> kNoBf16 = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
const std::vector<aclDataType> kAnyNoBf16 = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                             ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_BOOL};
const std::vector<aclDataType> kNnFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// An element function: its value is the expression of x, computed in T (float or double).
#define NPUSIM_ELEMENT_FN(Name, ...) \
  struct Name {                      \
    template <typename T>            \
    static T f(T x) {                \
      return __VA_ARGS__;            \
    }                                \
  };

// --- trigonometric and hyperbolic (ops-math math/<name>) ---
NPUSIM_ELEMENT_FN(Sin, std::sin(x))
NPUSIM_ELEMENT_FN(Cos, std::cos(x))
NPUSIM_ELEMENT_FN(Tan, std::tan(x))
NPUSIM_ELEMENT_FN(Asin, std::asin(x))
NPUSIM_ELEMENT_FN(Acos, std::acos(x))
NPUSIM_ELEMENT_FN(Atan, std::atan(x))
NPUSIM_ELEMENT_FN(Sinh, std::sinh(x))
NPUSIM_ELEMENT_FN(Cosh, std::cosh(x))
NPUSIM_ELEMENT_FN(Asinh, std::asinh(x))
NPUSIM_ELEMENT_FN(Acosh, std::acosh(x))
NPUSIM_ELEMENT_FN(Atanh, std::atanh(x))

const OpInfo kSin{"aclnnSin", ExecUnit::kVector, kAnyReal, "out = sin(self)"};
const OpInfo kCos{"aclnnCos", ExecUnit::kVector, kAnyReal, "out = cos(input)"};
const OpInfo kTan{"aclnnTan", ExecUnit::kVector, kAnyReal, "out = tan(self)"};
const OpInfo kAsin{"aclnnAsin", ExecUnit::kVector, kAnyNoBf16, "out = asin(self), nan outside [-1, 1]"};
const OpInfo kAcos{"aclnnAcos", ExecUnit::kVector, kAnyNoBf16, "out = acos(input), nan outside [-1, 1]"};
const OpInfo kAtan{"aclnnAtan", ExecUnit::kVector, kAnyReal, "out = atan(input)"};
const OpInfo kSinh{"aclnnSinh", ExecUnit::kVector, kAnyReal, "out = sinh(self)"};
const OpInfo kCosh{"aclnnCosh", ExecUnit::kVector, kNoBf16, "out = cosh(self)"};
const OpInfo kAsinh{"aclnnAsinh", ExecUnit::kVector, kAnyNoBf16, "out = asinh(input)"};
const OpInfo kAcosh{"aclnnAcosh", ExecUnit::kVector, kNoBf16, "out = acosh(self), nan below 1"};
const OpInfo kAtanh{"aclnnAtanh", ExecUnit::kVector, kAnyNoBf16, "out = atanh(input), ±inf at ±1"};

// --- rounding, reciprocal, sign ---
NPUSIM_ELEMENT_FN(Ceil, std::ceil(x))
NPUSIM_ELEMENT_FN(Floor, std::floor(x))
NPUSIM_ELEMENT_FN(Trunc, std::trunc(x))
NPUSIM_ELEMENT_FN(Round, std::nearbyint(x))  // half to even
NPUSIM_ELEMENT_FN(Reciprocal, T(1) / x)
NPUSIM_ELEMENT_FN(Sign, std::isnan(x) ? x : T((x > 0) - (x < 0)))
void signInt(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = (v[i] > 0) - (v[i] < 0);
}
void identityInt(int64_t*, int64_t) {}  // rounding an integer leaves it

const OpInfo kCeil{"aclnnCeil", ExecUnit::kVector, kFloats, "out = ceil(self)"};
const OpInfo kFloor{
    "aclnnFloor",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out = floor(self); integers unchanged"};
const OpInfo kTrunc{"aclnnTrunc", ExecUnit::kVector, kNnFloats, "out = trunc(self), toward zero"};
const OpInfo kRound{"aclnnRound",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64},
                    "out = round(self), halves to even; integers unchanged"};
const OpInfo kReciprocal{"aclnnReciprocal", ExecUnit::kVector, kAnyReal, "out = 1 / self"};
const OpInfo kSign{"aclnnSign",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},  // int8/uint8/int16: the experimental sign's types
                   "result = -1, 0 or 1 by the sign of self (nan stays nan)"};

// --- exponential, error and gamma functions ---
NPUSIM_ELEMENT_FN(Expm1, std::expm1(x))
NPUSIM_ELEMENT_FN(Log1p, std::log1p(x))
NPUSIM_ELEMENT_FN(Erf, std::erf(x))
NPUSIM_ELEMENT_FN(Erfc, std::erfc(x))
NPUSIM_ELEMENT_FN(Lgamma, std::lgamma(x))

// erf^-1: Winitzki's closed-form estimate refined by Newton steps on erf (converges to the
// last bit in fp64 within three steps over (-1, 1)).
struct Erfinv {
  template <typename T>
  static T f(T yt) {
    const double y = yt;
    if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<T>::quiet_NaN();
    if (y == 1 || y == -1) return T(y * std::numeric_limits<double>::infinity());
    const double a = 0.147, l = std::log((1 - y) * (1 + y)), b = 2 / (kPi * a) + l / 2;
    double x = std::copysign(std::sqrt(std::sqrt(b * b - l / a) - b), y);
    for (int i = 0; i < 3; ++i) x -= (std::erf(x) - y) / (2 / std::sqrt(kPi) * std::exp(-x * x));
    return T(x);
  }
};

// psi(x) = d/dx ln Gamma(x): reflection below 1/2, recurrence up to 6, then the asymptotic
// series; -inf at 0 and nan at the negative integers (as torch.digamma).
struct Digamma {
  template <typename T>
  static T f(T xt) {
    double x = xt;
    if (x == 0) return T(-std::numeric_limits<double>::infinity());
    if (x < 0 && x == std::floor(x)) return std::numeric_limits<T>::quiet_NaN();
    double r = 0;
    if (x < 0.5) {
      r = -kPi / std::tan(kPi * x);
      x = 1 - x;
    }
    for (; x < 6; x += 1) r -= 1 / x;
    const double z = 1 / (x * x);
    r += std::log(x) - 0.5 / x -
         z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132)))));
    return T(r);
  }
};

const OpInfo kExpm1{"aclnnExpm1",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64, ACL_BOOL},
                    "out = exp(self) - 1"};
const OpInfo kLog1p{"aclnnLog1p", ExecUnit::kVector, kAnyReal, "out = ln(1 + self)"};
const OpInfo kErf{"aclnnErf",
                  ExecUnit::kVector,
                  {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT64, ACL_BOOL},
                  "out = erf(self)"};
const OpInfo kErfc{"aclnnErfc",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT64, ACL_BOOL},
                   "out = 1 - erf(self)"};
const OpInfo kErfinv{
    "aclnnErfinv",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL},
    "out = erf^-1(self), ±inf at ±1, nan outside [-1, 1]"};
const OpInfo kLgamma{"aclnnLgamma", ExecUnit::kVector, kNoBf16, "out = ln|Gamma(self)|"};
const OpInfo kDigamma{"aclnnDigamma", ExecUnit::kVector, kNoBf16, "out = Gamma'(self) / Gamma(self)"};

// --- activations of x alone (ops-nn activation/<name>) ---
// x * tanh(softplus(x)), softplus computed without overflow
NPUSIM_ELEMENT_FN(Mish, (x * std::tanh(std::max(x, T(0)) + std::log1p(std::exp(-std::fabs(x))))))
// x * relu6(x + 3) / 6
NPUSIM_ELEMENT_FN(Hardswish, (x * std::min(std::max(x + T(3), T(0)), T(6)) / T(6)))
// relu6(x + 3) / 6
NPUSIM_ELEMENT_FN(Hardsigmoid, std::min(std::max(x + T(3), T(0)), T(6)) / T(6))
struct Selu {  // scale * (x > 0 ? x : alpha * (exp(x) - 1)), the constants of Klambauer et al. 2017
  template <typename T>
  static T f(T x) {
    const double alpha = 1.6732632423543772848, scale = 1.0507009873554804934;
    return T(scale * (x > 0 ? double(x) : alpha * std::expm1(double(x))));
  }
};
NPUSIM_ELEMENT_FN(SquaredRelu, x > 0 ? x * x : T(0))
// ln(1 / (1 + exp(-x))) = min(x, 0) - ln(1 + exp(-|x|))
NPUSIM_ELEMENT_FN(LogSigmoid, std::min(x, T(0)) - std::log1p(std::exp(-std::fabs(x))))

const OpInfo kMish{"aclnnMish", ExecUnit::kVector, kNnFloats, "out = self * tanh(ln(1 + exp(self)))"};
const OpInfo kHardswish{"aclnnHardswish", ExecUnit::kVector, kNnFloats,
                        "out = self * min(max(self + 3, 0), 6) / 6"};
const OpInfo kHardsigmoid{"aclnnHardsigmoid", ExecUnit::kVector, kNnFloats,
                          "out = min(max(self + 3, 0), 6) / 6"};
const OpInfo kSelu{"aclnnSelu", ExecUnit::kVector, kNnFloats,
                   "out = 1.0507 * (self > 0 ? self : 1.6733 * (exp(self) - 1))"};
const OpInfo kSquaredRelu{"aclnnSquaredRelu", ExecUnit::kVector, kNnFloats, "out = max(self, 0)^2"};
const OpInfo kLogSigmoid{"aclnnLogSigmoid", ExecUnit::kVector, kNnFloats, "out = ln(1 / (1 + exp(-self)))"};

// ops-nn experimental/activation/softsign: out = self / (1 + |self|), fp32/fp16/bf16, out of self's type.
NPUSIM_ELEMENT_FN(Softsign, x / (T(1) + std::fabs(x)))
// ops-nn activation/fast_gelu: out = self / (1 + exp(-1.702 self)), fp32/fp16/bf16.
NPUSIM_ELEMENT_FN(FastGelu, x / (T(1) + std::exp(T(-1.702) * x)))
const OpInfo kFastGelu{"aclnnFastGelu", ExecUnit::kVector, kNnFloats, "out = self / (1 + exp(-1.702 self))"};
const OpInfo kSoftsign{"aclnnSoftsign", ExecUnit::kVector, kNnFloats, "out = self / (1 + |self|)"};

// --- predicates and squares (ops-math math/{is_finite, is_pos_inf, is_neg_inf, signbit,
// logical_not, square}) ---
NPUSIM_ELEMENT_FN(IsFinite, std::isfinite(x) ? T(1) : T(0))
NPUSIM_ELEMENT_FN(IsPosInf, std::isinf(x) && x > 0 ? T(1) : T(0))
NPUSIM_ELEMENT_FN(IsNegInf, std::isinf(x) && x < 0 ? T(1) : T(0))
// -0.0 and -nan count as negative
NPUSIM_ELEMENT_FN(Signbit, std::signbit(x) ? T(1) : T(0))
NPUSIM_ELEMENT_FN(LogicalNot, x == T(0) ? T(1) : T(0))
NPUSIM_ELEMENT_FN(Square, (x * x))
void signbitInt(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = v[i] < 0;
}
void logicalNotInt(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = v[i] == 0;
}
void squareInt(int64_t* v, int64_t n) {  // wraps as the device's integer multiply
  for (int64_t i = 0; i < n; ++i)
    v[i] = static_cast<int64_t>(static_cast<uint64_t>(v[i]) * static_cast<uint64_t>(v[i]));
}
void neverInfinite(int64_t* v, int64_t n) {  // an integer is never infinite
  for (int64_t i = 0; i < n; ++i) v[i] = 0;
}

const std::vector<aclDataType> kBoolOut = {ACL_BOOL};
const OpInfo kIsFinite{"aclnnIsFinite", ExecUnit::kVector, kFloats, "out = self is neither inf nor nan"};
const OpInfo kIsPosInf{"aclnnIsPosInf", ExecUnit::kVector, kAnyReal, "out = (self == +inf)"};
const OpInfo kIsNegInf{"aclnnIsNegInf", ExecUnit::kVector, kAnyReal, "out = (self == -inf)"};
const OpInfo kSignbit{"aclnnSignbit", ExecUnit::kVector, kAnyReal,
                      "out = the sign bit of self (-0.0 counts)"};
const OpInfo kLogicalNot{"aclnnLogicalNot", ExecUnit::kVector, kAnyReal, "out = (self == 0)"};
const OpInfo kSquare{
    "aclnnSquare",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out = self * self"};

NPUSIM_ELEMENT_FN(Log2, std::log2(x))
NPUSIM_ELEMENT_FN(Log10, std::log10(x))
// sin(pi x) / (pi x), 1 at 0
NPUSIM_ELEMENT_FN(Sinc, x == T(0) ? T(1) : T(std::sin(kPi * double(x)) / (kPi * double(x))))
const OpInfo kLog2{"aclnnLog2", ExecUnit::kVector, kAnyReal, "out = log2(self)"};
const OpInfo kLog10{"aclnnLog10", ExecUnit::kVector, kAnyReal, "out = log10(self)"};
const OpInfo kSinc{"aclnnSinc", ExecUnit::kVector, kAnyReal, "out = sin(pi self) / (pi self), 1 at 0"};
const OpRegistrar kLogRegistrars[] = {OpRegistrar(kLog2), OpRegistrar(kLog10), OpRegistrar(kSinc)};
const UnaryDef kLog2Def = def<Log2>(kLog2, 2), kLog10Def = def<Log10>(kLog10, 2),
               kSincDef = def<Sinc>(kSinc, 8);

// ops-math math/bitwise_not: ~self on integers, logical negation on bool; a float self is 161002.
void bitwiseNotInt(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = ~v[i];
}
const OpInfo kBitwiseNot{"aclnnBitwiseNot",
                         ExecUnit::kVector,
                         {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL},
                         "out = ~self (integers), !self (bool)"};
const UnaryDef kBitwiseNotDef{&kBitwiseNot, nullptr, nullptr,      bitwiseNotInt, 1,
                              nullptr,      nullptr, logicalNotInt};

const OpRegistrar kPredicateRegistrars[] = {
    OpRegistrar(kBitwiseNot), OpRegistrar(kIsFinite),   OpRegistrar(kIsPosInf), OpRegistrar(kIsNegInf),
    OpRegistrar(kSignbit),    OpRegistrar(kLogicalNot), OpRegistrar(kSquare)};
const UnaryDef kIsFiniteDef{&kIsFinite, each<IsFinite, float>, each<IsFinite, double>, nullptr, 2, &kBoolOut};
const UnaryDef kIsPosInfDef{&kIsPosInf, each<IsPosInf, float>, each<IsPosInf, double>, neverInfinite, 2,
                            &kBoolOut};
const UnaryDef kIsNegInfDef{&kIsNegInf, each<IsNegInf, float>, each<IsNegInf, double>, neverInfinite, 2,
                            &kBoolOut};
const UnaryDef kSignbitDef{&kSignbit, each<Signbit, float>, each<Signbit, double>, signbitInt, 1,
                           &kAnyReal};  // "bool or a type bool casts to" (its doc)
const UnaryDef kLogicalNotDef{
    &kLogicalNot, each<LogicalNot, float>, each<LogicalNot, double>, logicalNotInt, 1, &kAnyReal};
const UnaryDef kSquareDef = def<Square>(kSquare, 1, squareInt);

const OpRegistrar kRegistrars[] = {
    OpRegistrar(kSin),         OpRegistrar(kCos),        OpRegistrar(kTan),         OpRegistrar(kAsin),
    OpRegistrar(kAcos),        OpRegistrar(kAtan),       OpRegistrar(kSinh),        OpRegistrar(kCosh),
    OpRegistrar(kAsinh),       OpRegistrar(kAcosh),      OpRegistrar(kAtanh),       OpRegistrar(kCeil),
    OpRegistrar(kFloor),       OpRegistrar(kTrunc),      OpRegistrar(kRound),       OpRegistrar(kReciprocal),
    OpRegistrar(kSign),        OpRegistrar(kExpm1),      OpRegistrar(kLog1p),       OpRegistrar(kErf),
    OpRegistrar(kErfc),        OpRegistrar(kErfinv),     OpRegistrar(kLgamma),      OpRegistrar(kDigamma),
    OpRegistrar(kMish),        OpRegistrar(kHardswish),  OpRegistrar(kHardsigmoid), OpRegistrar(kSelu),
    OpRegistrar(kSquaredRelu), OpRegistrar(kLogSigmoid), OpRegistrar(kSoftsign),    OpRegistrar(kFastGelu)};

const UnaryDef kSinDef = def<Sin>(kSin, 8), kCosDef = def<Cos>(kCos, 8), kTanDef = def<Tan>(kTan, 8);
const UnaryDef kAsinDef = def<Asin>(kAsin, 8), kAcosDef = def<Acos>(kAcos, 8), kAtanDef = def<Atan>(kAtan, 8);
const UnaryDef kSinhDef = def<Sinh>(kSinh, 4), kCoshDef = def<Cosh>(kCosh, 4),
               kAsinhDef = def<Asinh>(kAsinh, 4);
const UnaryDef kAcoshDef = def<Acosh>(kAcosh, 4), kAtanhDef = def<Atanh>(kAtanh, 4);
const UnaryDef kCeilDef = def<Ceil>(kCeil, 1), kFloorDef = def<Floor>(kFloor, 1, identityInt);
const UnaryDef kTruncDef = def<Trunc>(kTrunc, 1), kRoundDef = def<Round>(kRound, 1, identityInt);
const UnaryDef kReciprocalDef = def<Reciprocal>(kReciprocal, 1), kSignDef = def<Sign>(kSign, 1, signInt);
const UnaryDef kExpm1Def = def<Expm1>(kExpm1, 2), kLog1pDef = def<Log1p>(kLog1p, 2);
const UnaryDef kErfDef = def<Erf>(kErf, 8), kErfcDef = def<Erfc>(kErfc, 8),
               kErfinvDef = def<Erfinv>(kErfinv, 8);
const UnaryDef kLgammaDef = def<Lgamma>(kLgamma, 8), kDigammaDef = def<Digamma>(kDigamma, 8);
const UnaryDef kMishDef = def<Mish>(kMish, 4), kHardswishDef = def<Hardswish>(kHardswish, 2);
const UnaryDef kHardsigmoidDef = def<Hardsigmoid>(kHardsigmoid, 2), kSeluDef = def<Selu>(kSelu, 4);
const UnaryDef kSquaredReluDef = def<SquaredRelu>(kSquaredRelu, 2),
               kLogSigmoidDef = def<LogSigmoid>(kLogSigmoid, 4);
const UnaryDef kSoftsignDef = def<Softsign>(kSoftsign, 3);  // abs, add, divide
const UnaryDef kFastGeluDef = def<FastGelu>(kFastGelu, 4);  // multiply, exp, add, divide

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::UnaryDef;
#define UNARY_PAIR(Name, def, RefT)            \
  NPUSIM_ACLNN_UNARY(Name, npusim::aclnn::def) \
  NPUSIM_ACLNN_UNARY_INPLACE_AS(Name, npusim::aclnn::def, RefT)

UNARY_PAIR(Sin, kSinDef, aclTensor)
UNARY_PAIR(Cos, kCosDef, aclTensor)
UNARY_PAIR(Tan, kTanDef, const aclTensor)
UNARY_PAIR(Asin, kAsinDef, aclTensor)
UNARY_PAIR(Acos, kAcosDef, aclTensor)
UNARY_PAIR(Atan, kAtanDef, aclTensor)
UNARY_PAIR(Sinh, kSinhDef, aclTensor)
UNARY_PAIR(Cosh, kCoshDef, aclTensor)
UNARY_PAIR(Asinh, kAsinhDef, aclTensor)
UNARY_PAIR(Acosh, kAcoshDef, aclTensor)
UNARY_PAIR(Atanh, kAtanhDef, aclTensor)
UNARY_PAIR(Ceil, kCeilDef, aclTensor)
UNARY_PAIR(Floor, kFloorDef, aclTensor)
UNARY_PAIR(Trunc, kTruncDef, aclTensor)
UNARY_PAIR(Round, kRoundDef, const aclTensor)
UNARY_PAIR(Reciprocal, kReciprocalDef, const aclTensor)
NPUSIM_ACLNN_UNARY(Sign, npusim::aclnn::kSignDef)
UNARY_PAIR(Expm1, kExpm1Def, aclTensor)
UNARY_PAIR(Log1p, kLog1pDef, aclTensor)
UNARY_PAIR(Erf, kErfDef, aclTensor)
UNARY_PAIR(Erfc, kErfcDef, const aclTensor)
UNARY_PAIR(Erfinv, kErfinvDef, const aclTensor)
NPUSIM_ACLNN_UNARY(Lgamma, npusim::aclnn::kLgammaDef)
NPUSIM_ACLNN_UNARY(Digamma, npusim::aclnn::kDigammaDef)
UNARY_PAIR(Mish, kMishDef, aclTensor)
NPUSIM_ACLNN_UNARY_AS(Hardswish, npusim::aclnn::kHardswishDef, const aclTensor)
NPUSIM_ACLNN_UNARY_INPLACE_AS(Hardswish, npusim::aclnn::kHardswishDef, const aclTensor)
UNARY_PAIR(Hardsigmoid, kHardsigmoidDef, const aclTensor)
UNARY_PAIR(Selu, kSeluDef, aclTensor)
NPUSIM_ACLNN_UNARY(SquaredRelu, npusim::aclnn::kSquaredReluDef)
NPUSIM_ACLNN_UNARY(LogSigmoid, npusim::aclnn::kLogSigmoidDef)
NPUSIM_ACLNN_UNARY_AS(Softsign, npusim::aclnn::kSoftsignDef, const aclTensor)
NPUSIM_ACLNN_UNARY(FastGelu, npusim::aclnn::kFastGeluDef)
NPUSIM_ACLNN_UNARY(IsFinite, npusim::aclnn::kIsFiniteDef)
NPUSIM_ACLNN_UNARY(IsPosInf, npusim::aclnn::kIsPosInfDef)
NPUSIM_ACLNN_UNARY(IsNegInf, npusim::aclnn::kIsNegInfDef)
NPUSIM_ACLNN_UNARY(Signbit, npusim::aclnn::kSignbitDef)
UNARY_PAIR(LogicalNot, kLogicalNotDef, aclTensor)
NPUSIM_ACLNN_UNARY(Square, npusim::aclnn::kSquareDef)
NPUSIM_ACLNN_UNARY(BitwiseNot, npusim::aclnn::kBitwiseNotDef)
NPUSIM_ACLNN_UNARY_AS(Log2, npusim::aclnn::kLog2Def, const aclTensor)
NPUSIM_ACLNN_UNARY_INPLACE_AS(Log2, npusim::aclnn::kLog2Def, const aclTensor)
UNARY_PAIR(Log10, kLog10Def, aclTensor)
UNARY_PAIR(Sinc, kSincDef, aclTensor)
