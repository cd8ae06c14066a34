// The aclnnForeach* operators (ops-nn foreach/, issue 28) on the foreach engine (foreach_op.h):
// each is its definition from the operator's doc (docs/aclnnForeach<Name>.md: the formula, the
// accepted types of the lists and of the scalar) and an entry point with the public signature.
// The element functions are those of the elementwise engines' operators (same formulas, NaN
// rules of aclnnMaximum/aclnnMinimum, integer arithmetic wrapping as the vector unit's);
// vector passes as in unary_math.cpp: 1 for one instruction, 2 for exp/ln-based functions,
// 4 for several exp/ln steps, 8 for series with range reduction (trigonometric, error function).
#include <cmath>
#include <cstdlib>
#include <limits>

#include "aclnnop/aclnn_foreach_abs.h"
#include "aclnnop/aclnn_foreach_acos.h"
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_add_list_v2.h"
#include "aclnnop/aclnn_foreach_add_scalar.h"
#include "aclnnop/aclnn_foreach_add_scalar_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_asin.h"
#include "aclnnop/aclnn_foreach_atan.h"
#include "aclnnop/aclnn_foreach_copy.h"
#include "aclnnop/aclnn_foreach_cos.h"
#include "aclnnop/aclnn_foreach_cosh.h"
#include "aclnnop/aclnn_foreach_div_list.h"
#include "aclnnop/aclnn_foreach_div_scalar.h"
#include "aclnnop/aclnn_foreach_div_scalar_list.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_erf.h"
#include "aclnnop/aclnn_foreach_erfc.h"
#include "aclnnop/aclnn_foreach_exp.h"
#include "aclnnop/aclnn_foreach_expm1.h"
#include "aclnnop/aclnn_foreach_lerp_list.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_log.h"
#include "aclnnop/aclnn_foreach_log10.h"
#include "aclnnop/aclnn_foreach_log1p.h"
#include "aclnnop/aclnn_foreach_log2.h"
#include "aclnnop/aclnn_foreach_maximum_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_minimum_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_neg.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_pow_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar.h"
#include "aclnnop/aclnn_foreach_pow_scalar_and_tensor.h"
#include "aclnnop/aclnn_foreach_pow_scalar_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar_v2.h"
#include "aclnnop/aclnn_foreach_reciprocal.h"
#include "aclnnop/aclnn_foreach_round_off_number.h"
#include "aclnnop/aclnn_foreach_round_off_number_v2.h"
#include "aclnnop/aclnn_foreach_sigmoid.h"
#include "aclnnop/aclnn_foreach_sign.h"
#include "aclnnop/aclnn_foreach_sin.h"
#include "aclnnop/aclnn_foreach_sinh.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_foreach_sub_list.h"
#include "aclnnop/aclnn_foreach_sub_list_v2.h"
#include "aclnnop/aclnn_foreach_sub_scalar.h"
#include "aclnnop/aclnn_foreach_sub_scalar_list.h"
#include "aclnnop/aclnn_foreach_sub_scalar_v2.h"
#include "aclnnop/aclnn_foreach_tan.h"
#include "aclnnop/aclnn_foreach_tanh.h"
#include "aclnnop/aclnn_foreach_zero_inplace.h"
#include "runtime/aclnn/ops/foreach_op.h"

namespace npusim::aclnn {
namespace {

using T = std::vector<aclDataType>;

// Accepted types of the lists, from each operator's doc.
const T kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const T kFloatsInt32 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
const T kFloatsSmallInts = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
const T kExpTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT8, ACL_UINT8};
const T kSignTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_INT64};
const T kRoundTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16};
const T kZeroTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT32};
const T kCopyTypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_INT8,  ACL_UINT8,  ACL_INT16,
                      ACL_UINT16, ACL_INT32,   ACL_UINT32, ACL_INT64, ACL_DOUBLE, ACL_BOOL};
// Accepted types of the scalars: a device tensor (V1), an aclScalar (V2), a list.
const T kTensorScalar = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32};
const T kHostScalar = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE, ACL_INT64};
const T kFloatInt64 = {ACL_FLOAT, ACL_INT64};
const T kFloatInt64Double = {ACL_FLOAT, ACL_INT64, ACL_DOUBLE};

// ---- element functions: (a, b, c) the lists' elements, s the scalar ----
double fZero(double, double, double, double) { return 0; }
int64_t iZero(int64_t, int64_t, int64_t, int64_t) { return 0; }
double fCopy(double a, double, double, double) { return a; }
int64_t iCopy(int64_t a, int64_t, int64_t, int64_t) { return a; }
double fNeg(double a, double, double, double) { return -a; }
int64_t iNeg(int64_t a, int64_t, int64_t, int64_t) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
}
double fAbs(double a, double, double, double) { return std::fabs(a); }
double fSign(double a, double, double, double) { return a > 0 ? 1 : a < 0 ? -1 : a; }  // keeps nan and -0
int64_t iSign(int64_t a, int64_t, int64_t, int64_t) { return a > 0 ? 1 : a < 0 ? -1 : 0; }
double fReciprocal(double a, double, double, double) { return 1 / a; }
double fSqrt(double a, double, double, double) { return std::sqrt(a); }
double fExp(double a, double, double, double) { return std::exp(a); }
double fExpm1(double a, double, double, double) { return std::expm1(a); }
double fLog(double a, double, double, double) { return std::log(a); }
double fLog2(double a, double, double, double) { return std::log2(a); }
double fLog10(double a, double, double, double) { return std::log10(a); }
double fLog1p(double a, double, double, double) { return std::log1p(a); }
double fSin(double a, double, double, double) { return std::sin(a); }
double fCos(double a, double, double, double) { return std::cos(a); }
double fTan(double a, double, double, double) { return std::tan(a); }
double fAsin(double a, double, double, double) { return std::asin(a); }
double fAcos(double a, double, double, double) { return std::acos(a); }
double fAtan(double a, double, double, double) { return std::atan(a); }
double fSinh(double a, double, double, double) { return std::sinh(a); }
double fCosh(double a, double, double, double) { return std::cosh(a); }
double fTanh(double a, double, double, double) { return std::tanh(a); }
double fSigmoid(double a, double, double, double) { return 1 / (1 + std::exp(-a)); }
double fErf(double a, double, double, double) { return std::erf(a); }
double fErfc(double a, double, double, double) { return std::erfc(a); }

// Integer arithmetic wraps: it is done on uint64_t and truncated to the type when stored.
uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }
int64_t wrap(uint64_t v) { return static_cast<int64_t>(v); }

// x + s*y (AddList's alpha, AddScalar's scalar with y = 1)
double fAddScaled(double a, double b, double, double s) { return a + b * s; }
int64_t iAddScaled(int64_t a, int64_t b, int64_t, int64_t s) { return wrap(u(a) + u(b) * u(s)); }
double fSubScaled(double a, double b, double, double s) { return a - b * s; }
int64_t iSubScaled(int64_t a, int64_t b, int64_t, int64_t s) { return wrap(u(a) - u(b) * u(s)); }
double fMul(double a, double b, double, double) { return a * b; }
int64_t iMul(int64_t a, int64_t b, int64_t, int64_t) { return wrap(u(a) * u(b)); }
double fDiv(double a, double b, double, double) { return a / b; }
// NaN wins, as aclnnMaximum/aclnnMinimum
double fMax(double a, double b, double, double) { return a != a || b != b ? a + b : std::max(a, b); }
int64_t iMax(int64_t a, int64_t b, int64_t, int64_t) { return std::max(a, b); }
double fMin(double a, double b, double, double) { return a != a || b != b ? a + b : std::min(a, b); }
int64_t iMin(int64_t a, int64_t b, int64_t, int64_t) { return std::min(a, b); }
double fPow(double a, double b, double, double) { return std::pow(a, b); }
// x^e by square and multiply; a negative e gives 1/x truncated (1, +-1 or 0).
int64_t intPow(int64_t x, int64_t e) {
  if (e < 0) return x == 1 ? 1 : x == -1 ? ((e & 1) ? -1 : 1) : 0;
  uint64_t r = 1, b = u(x);
  for (uint64_t k = u(e); k != 0; k >>= 1, b *= b) {
    if (k & 1) r *= b;
  }
  return wrap(r);
}
int64_t iPow(int64_t a, int64_t b, int64_t, int64_t) { return intPow(a, b); }

// The scalar forms: the scalar stands for the second operand.
double fAddS(double a, double, double, double s) { return a + s; }
int64_t iAddS(int64_t a, int64_t, int64_t, int64_t s) { return wrap(u(a) + u(s)); }
double fSubS(double a, double, double, double s) { return a - s; }
int64_t iSubS(int64_t a, int64_t, int64_t, int64_t s) { return wrap(u(a) - u(s)); }
double fMulS(double a, double, double, double s) { return a * s; }
int64_t iMulS(int64_t a, int64_t, int64_t, int64_t s) { return wrap(u(a) * u(s)); }
double fDivS(double a, double, double, double s) { return a / s; }
double fMaxS(double a, double, double, double s) { return fMax(a, s, 0, 0); }
int64_t iMaxS(int64_t a, int64_t, int64_t, int64_t s) { return std::max(a, s); }
double fMinS(double a, double, double, double s) { return fMin(a, s, 0, 0); }
int64_t iMinS(int64_t a, int64_t, int64_t, int64_t s) { return std::min(a, s); }
double fPowS(double a, double, double, double s) { return std::pow(a, s); }
int64_t iPowS(int64_t a, int64_t, int64_t, int64_t s) { return intPow(a, s); }
double fScalarPow(double a, double, double, double s) { return std::pow(s, a); }  // s^x
int64_t iScalarPow(int64_t a, int64_t, int64_t, int64_t s) { return intPow(s, a); }

// Pointwise: x1 + s * x2 / x3, x1 + s * x2 * x3; lerp: x1 + w * (x2 - x1).
double fAddcdiv(double a, double b, double c, double s) { return a + s * (b / c); }
double fAddcmul(double a, double b, double c, double s) { return a + s * (b * c); }
int64_t iAddcmul(int64_t a, int64_t b, int64_t c, int64_t s) { return wrap(u(a) + u(s) * (u(b) * u(c))); }
double fLerpList(double a, double b, double w, double) { return a + w * (b - a); }
double fLerpScalar(double a, double b, double, double w) { return a + w * (b - a); }

// RoundOffNumber's modes (the kernel's Cast round modes): 1 nearest even, 2 floor, 3 ceil,
// 4 half away from zero, 5 toward zero, 6 to odd (an inexact value goes to the odd one of its
// two neighbouring integers), 7 the fraction x - trunc(x); any other value leaves x as it is.
double fRoundOff(double a, double, double, double mode) {
  if (!std::isfinite(a)) return mode == 7 && std::isinf(a) ? std::numeric_limits<double>::quiet_NaN() : a;
  switch (static_cast<int>(mode)) {
    case 1:
      return std::nearbyint(a);
    case 2:
      return std::floor(a);
    case 3:
      return std::ceil(a);
    case 4:
      return std::round(a);
    case 5:
      return std::trunc(a);
    case 6: {
      const double f = std::floor(a);
      if (f == a) return a;
      return std::fmod(f, 2.0) != 0 ? f : f + 1;
    }
    case 7:
      return a - std::trunc(a);
    default:
      return a;
  }
}
int64_t iRoundOff(int64_t a, int64_t, int64_t, int64_t mode) { return mode == 7 ? 0 : a; }

// ---- definitions ----
const OpInfo kAbs{"aclnnForeachAbs", ExecUnit::kVector, kFloats, "y_i = |x_i|"};
const OpInfo kAcos{"aclnnForeachAcos", ExecUnit::kVector, kFloats, "y_i = acos(x_i)"};
const OpInfo kAsin{"aclnnForeachAsin", ExecUnit::kVector, kFloats, "y_i = asin(x_i)"};
const OpInfo kAtan{"aclnnForeachAtan", ExecUnit::kVector, kFloats, "y_i = atan(x_i)"};
const OpInfo kCos{"aclnnForeachCos", ExecUnit::kVector, kFloats, "y_i = cos(x_i)"};
const OpInfo kCosh{"aclnnForeachCosh", ExecUnit::kVector, kFloats, "y_i = cosh(x_i)"};
const OpInfo kErf{"aclnnForeachErf", ExecUnit::kVector, kFloats, "y_i = erf(x_i)"};
const OpInfo kErfc{"aclnnForeachErfc", ExecUnit::kVector, kFloats, "y_i = erfc(x_i)"};
const OpInfo kExp{"aclnnForeachExp", ExecUnit::kVector, kExpTypes, "y_i = e^x_i"};
const OpInfo kExpm1{"aclnnForeachExpm1", ExecUnit::kVector, kExpTypes, "y_i = e^x_i - 1"};
const OpInfo kLog{"aclnnForeachLog", ExecUnit::kVector, kFloats, "y_i = ln(x_i)"};
const OpInfo kLog2{"aclnnForeachLog2", ExecUnit::kVector, kFloats, "y_i = log2(x_i)"};
const OpInfo kLog10{"aclnnForeachLog10", ExecUnit::kVector, kFloats, "y_i = log10(x_i)"};
const OpInfo kLog1p{"aclnnForeachLog1p", ExecUnit::kVector, kFloats, "y_i = ln(1 + x_i)"};
const OpInfo kNeg{"aclnnForeachNeg", ExecUnit::kVector, kFloatsSmallInts, "y_i = -x_i"};
const OpInfo kReciprocal{"aclnnForeachReciprocal", ExecUnit::kVector, kFloats, "y_i = 1 / x_i"};
const OpInfo kSigmoid{"aclnnForeachSigmoid", ExecUnit::kVector, kFloats, "y_i = 1 / (1 + e^-x_i)"};
const OpInfo kSign{"aclnnForeachSign", ExecUnit::kVector, kSignTypes, "y_i = sign(x_i)"};
const OpInfo kSin{"aclnnForeachSin", ExecUnit::kVector, kFloats, "y_i = sin(x_i)"};
const OpInfo kSinh{"aclnnForeachSinh", ExecUnit::kVector, kFloats, "y_i = sinh(x_i)"};
const OpInfo kSqrt{"aclnnForeachSqrt", ExecUnit::kVector, kFloats, "y_i = sqrt(x_i)"};
const OpInfo kTan{"aclnnForeachTan", ExecUnit::kVector, kFloats, "y_i = tan(x_i)"};
const OpInfo kTanh{"aclnnForeachTanh", ExecUnit::kVector, kFloats, "y_i = tanh(x_i)"};
const OpInfo kCopy{"aclnnForeachCopy", ExecUnit::kVector, kCopyTypes, "y_i = x_i"};
const OpInfo kZero{"aclnnForeachZeroInplace", ExecUnit::kVector, kZeroTypes, "x_i = 0"};

ForeachDef unary(const OpInfo& info, double (*f)(double, double, double, double), int passes,
                 int64_t (*fi)(int64_t, int64_t, int64_t, int64_t) = nullptr) {
  ForeachDef d;
  d.info = &info;
  d.f = f;
  d.fi = fi;
  d.passes = passes;
  return d;
}

const ForeachDef kAbsDef = unary(kAbs, fAbs, 1), kAcosDef = unary(kAcos, fAcos, 8),
                 kAsinDef = unary(kAsin, fAsin, 8);
const ForeachDef kAtanDef = unary(kAtan, fAtan, 8), kCosDef = unary(kCos, fCos, 8),
                 kCoshDef = unary(kCosh, fCosh, 4);
const ForeachDef kErfDef = unary(kErf, fErf, 8), kErfcDef = unary(kErfc, fErfc, 8),
                 kExpDef = unary(kExp, fExp, 2);
const ForeachDef kExpm1Def = unary(kExpm1, fExpm1, 2), kLogDef = unary(kLog, fLog, 2),
                 kLog2Def = unary(kLog2, fLog2, 2);
const ForeachDef kLog10Def = unary(kLog10, fLog10, 2), kLog1pDef = unary(kLog1p, fLog1p, 2);
const ForeachDef kNegDef = unary(kNeg, fNeg, 1, iNeg), kReciprocalDef = unary(kReciprocal, fReciprocal, 1);
const ForeachDef kSigmoidDef = unary(kSigmoid, fSigmoid, 4), kSignDef = unary(kSign, fSign, 1, iSign);
const ForeachDef kSinDef = unary(kSin, fSin, 8), kSinhDef = unary(kSinh, fSinh, 4),
                 kSqrtDef = unary(kSqrt, fSqrt, 1);
const ForeachDef kTanDef = unary(kTan, fTan, 8), kTanhDef = unary(kTanh, fTanh, 4);
const ForeachDef kCopyDef = unary(kCopy, fCopy, 1, iCopy);
const ForeachDef kZeroDef = [] {
  ForeachDef d = unary(kZero, fZero, 1, iZero);
  d.readsX = false;
  return d;
}();

// An operator of `lists` tensor lists and a scalar of the given types.
ForeachDef withScalar(const OpInfo& info, int lists, double (*f)(double, double, double, double),
                      int64_t (*fi)(int64_t, int64_t, int64_t, int64_t), int passes, const T& scalarTypes) {
  ForeachDef d = unary(info, f, passes, fi);
  d.lists = lists;
  d.scalarTypes = scalarTypes;
  return d;
}

// Two lists (the List forms, with AddList/SubList's alpha).
const OpInfo kAddList{"aclnnForeachAddList", ExecUnit::kVector, kFloatsSmallInts,
                      "y_i = x1_i + alpha * x2_i"};
const OpInfo kAddListV2{"aclnnForeachAddListV2", ExecUnit::kVector, kFloatsSmallInts,
                        "y_i = x1_i + alpha * x2_i, alpha an aclScalar"};
const OpInfo kSubList{"aclnnForeachSubList", ExecUnit::kVector, kFloatsSmallInts,
                      "y_i = x1_i - alpha * x2_i"};
const OpInfo kSubListV2{"aclnnForeachSubListV2", ExecUnit::kVector, kFloatsSmallInts,
                        "y_i = x1_i - alpha * x2_i, alpha an aclScalar"};
const OpInfo kMulList{"aclnnForeachMulList", ExecUnit::kVector, kFloatsSmallInts, "y_i = x1_i * x2_i"};
const OpInfo kDivList{"aclnnForeachDivList", ExecUnit::kVector, kFloats, "y_i = x1_i / x2_i"};
const OpInfo kMaximumList{"aclnnForeachMaximumList", ExecUnit::kVector, kFloatsInt32,
                          "y_i = max(x1_i, x2_i)"};
const OpInfo kMinimumList{"aclnnForeachMinimumList", ExecUnit::kVector, kFloatsInt32,
                          "y_i = min(x1_i, x2_i)"};
const OpInfo kPowList{"aclnnForeachPowList", ExecUnit::kVector, kFloatsInt32, "y_i = x1_i ^ x2_i"};
const ForeachDef kAddListDef = withScalar(kAddList, 2, fAddScaled, iAddScaled, 2, kTensorScalar);
const ForeachDef kAddListV2Def = withScalar(kAddListV2, 2, fAddScaled, iAddScaled, 2, kHostScalar);
const ForeachDef kSubListDef = withScalar(kSubList, 2, fSubScaled, iSubScaled, 2, kTensorScalar);
const ForeachDef kSubListV2Def = withScalar(kSubListV2, 2, fSubScaled, iSubScaled, 2, kHostScalar);
const ForeachDef kMulListDef = withScalar(kMulList, 2, fMul, iMul, 1, {});
const ForeachDef kDivListDef = withScalar(kDivList, 2, fDiv, nullptr, 1, {});
const ForeachDef kMaximumListDef = withScalar(kMaximumList, 2, fMax, iMax, 1, {});
const ForeachDef kMinimumListDef = withScalar(kMinimumList, 2, fMin, iMin, 1, {});
const ForeachDef kPowListDef = withScalar(kPowList, 2, fPow, iPow, 3, {});  // ln, multiply, exp

// One list and a scalar: a device tensor (V1), an aclScalar (V2) or an aclScalarList.
#define NPUSIM_FOREACH_SCALAR_INFOS(Op, Types, Formula)                                       \
  const OpInfo k##Op##Scalar{"aclnnForeach" #Op "Scalar", ExecUnit::kVector, Types, Formula}; \
  const OpInfo k##Op##ScalarV2{"aclnnForeach" #Op "ScalarV2", ExecUnit::kVector, Types,       \
                               Formula ", scalar an aclScalar"};                              \
  const OpInfo k##Op##ScalarList{"aclnnForeach" #Op "ScalarList", ExecUnit::kVector, Types, Formula "_i"};
NPUSIM_FOREACH_SCALAR_INFOS(Add, kFloatsSmallInts, "y_i = x_i + scalar")
NPUSIM_FOREACH_SCALAR_INFOS(Sub, kFloatsInt32, "y_i = x_i - scalar")
NPUSIM_FOREACH_SCALAR_INFOS(Mul, kFloatsInt32, "y_i = x_i * scalar")
NPUSIM_FOREACH_SCALAR_INFOS(Div, kFloats, "y_i = x_i / scalar")
NPUSIM_FOREACH_SCALAR_INFOS(Maximum, kFloatsInt32, "y_i = max(x_i, scalar)")
NPUSIM_FOREACH_SCALAR_INFOS(Minimum, kFloatsInt32, "y_i = min(x_i, scalar)")
#undef NPUSIM_FOREACH_SCALAR_INFOS
const OpInfo kPowScalar{"aclnnForeachPowScalar", ExecUnit::kVector, kFloatsInt32, "y_i = x_i ^ scalar"};
const OpInfo kPowScalarV2{"aclnnForeachPowScalarV2", ExecUnit::kVector, kFloats,
                          "y_i = x_i ^ scalar, scalar an aclScalar"};
const OpInfo kPowScalarList{"aclnnForeachPowScalarList", ExecUnit::kVector, kFloatsInt32,
                            "y_i = x_i ^ scalar_i"};
const OpInfo kPowScalarAndTensor{"aclnnForeachPowScalarAndTensor", ExecUnit::kVector, kFloatsInt32,
                                 "y_i = scalar ^ x_i"};

const ForeachDef kAddScalarDef = withScalar(kAddScalar, 1, fAddS, iAddS, 1, kTensorScalar);
const ForeachDef kAddScalarV2Def = withScalar(kAddScalarV2, 1, fAddS, iAddS, 1, kHostScalar);
const ForeachDef kAddScalarListDef = withScalar(kAddScalarList, 1, fAddS, iAddS, 1, kFloatInt64);
const ForeachDef kSubScalarDef = withScalar(kSubScalar, 1, fSubS, iSubS, 1, kTensorScalar);
const ForeachDef kSubScalarV2Def = withScalar(kSubScalarV2, 1, fSubS, iSubS, 1, kHostScalar);
const ForeachDef kSubScalarListDef = withScalar(kSubScalarList, 1, fSubS, iSubS, 1, kFloatInt64);
const ForeachDef kMulScalarDef = withScalar(kMulScalar, 1, fMulS, iMulS, 1, kTensorScalar);
const ForeachDef kMulScalarV2Def = withScalar(kMulScalarV2, 1, fMulS, iMulS, 1, kHostScalar);
const ForeachDef kMulScalarListDef = withScalar(kMulScalarList, 1, fMulS, iMulS, 1, kFloatInt64Double);
const ForeachDef kDivScalarDef = withScalar(kDivScalar, 1, fDivS, nullptr, 1, {ACL_FLOAT, ACL_FLOAT16});
const ForeachDef kDivScalarV2Def =
    withScalar(kDivScalarV2, 1, fDivS, nullptr, 1, {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE});
const ForeachDef kDivScalarListDef = withScalar(kDivScalarList, 1, fDivS, nullptr, 1, {ACL_FLOAT});
const ForeachDef kMaximumScalarDef = withScalar(kMaximumScalar, 1, fMaxS, iMaxS, 1, kTensorScalar);
const ForeachDef kMaximumScalarV2Def = withScalar(kMaximumScalarV2, 1, fMaxS, iMaxS, 1, kHostScalar);
const ForeachDef kMaximumScalarListDef =
    withScalar(kMaximumScalarList, 1, fMaxS, iMaxS, 1, kFloatInt64Double);
const ForeachDef kMinimumScalarDef = withScalar(kMinimumScalar, 1, fMinS, iMinS, 1, kTensorScalar);
const ForeachDef kMinimumScalarV2Def = withScalar(kMinimumScalarV2, 1, fMinS, iMinS, 1, kHostScalar);
const ForeachDef kMinimumScalarListDef =
    withScalar(kMinimumScalarList, 1, fMinS, iMinS, 1, kFloatInt64Double);
const ForeachDef kPowScalarDef = withScalar(kPowScalar, 1, fPowS, iPowS, 3, kTensorScalar);
const ForeachDef kPowScalarV2Def =
    withScalar(kPowScalarV2, 1, fPowS, nullptr, 3, {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE});
const ForeachDef kPowScalarListDef = withScalar(kPowScalarList, 1, fPowS, iPowS, 3, kFloatInt64);
const ForeachDef kPowScalarAndTensorDef =
    withScalar(kPowScalarAndTensor, 1, fScalarPow, iScalarPow, 3, {ACL_FLOAT, ACL_DOUBLE, ACL_INT64});

// Three lists: addcdiv / addcmul with a scalar (one, or one per entry), lerp.
const OpInfo kAddcdivList{"aclnnForeachAddcdivList", ExecUnit::kVector, kFloats,
                          "y_i = x1_i + scalars_i * x2_i / x3_i"};
const OpInfo kAddcdivScalar{"aclnnForeachAddcdivScalar", ExecUnit::kVector, kFloats,
                            "y_i = x1_i + scalar * x2_i / x3_i"};
const OpInfo kAddcdivScalarV2{"aclnnForeachAddcdivScalarV2", ExecUnit::kVector, kFloats,
                              "y_i = x1_i + scalar * x2_i / x3_i, scalar an aclScalar"};
const OpInfo kAddcdivScalarList{"aclnnForeachAddcdivScalarList", ExecUnit::kVector, kFloats,
                                "y_i = x1_i + scalars_i * x2_i / x3_i"};
const OpInfo kAddcmulList{"aclnnForeachAddcmulList", ExecUnit::kVector, kFloatsInt32,
                          "y_i = x1_i + scalars_i * x2_i * x3_i"};
const OpInfo kAddcmulScalar{"aclnnForeachAddcmulScalar", ExecUnit::kVector, kFloatsInt32,
                            "y_i = x1_i + scalar * x2_i * x3_i"};
const OpInfo kAddcmulScalarV2{"aclnnForeachAddcmulScalarV2", ExecUnit::kVector, kFloatsInt32,
                              "y_i = x1_i + scalar * x2_i * x3_i, scalar an aclScalar"};
const OpInfo kAddcmulScalarList{"aclnnForeachAddcmulScalarList", ExecUnit::kVector, kFloatsInt32,
                                "y_i = x1_i + scalars_i * x2_i * x3_i"};
const OpInfo kLerpList{"aclnnForeachLerpList", ExecUnit::kVector, kFloats,
                       "y_i = x1_i + weight_i * (x2_i - x1_i)"};
const OpInfo kLerpScalar{"aclnnForeachLerpScalar", ExecUnit::kVector, kFloats,
                         "y_i = x1_i + weight * (x2_i - x1_i), weight an aclScalar"};
const T kPerEntryFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const T kPerEntryFloatsInt32 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
const ForeachDef kAddcdivListDef = withScalar(kAddcdivList, 3, fAddcdiv, nullptr, 3, kPerEntryFloats);
const ForeachDef kAddcdivScalarDef =
    withScalar(kAddcdivScalar, 3, fAddcdiv, nullptr, 3, {ACL_FLOAT, ACL_FLOAT16});
const ForeachDef kAddcdivScalarV2Def =
    withScalar(kAddcdivScalarV2, 3, fAddcdiv, nullptr, 3, {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE});
const ForeachDef kAddcdivScalarListDef =
    withScalar(kAddcdivScalarList, 3, fAddcdiv, nullptr, 3, kPerEntryFloats);
const ForeachDef kAddcmulListDef = withScalar(kAddcmulList, 3, fAddcmul, iAddcmul, 3, kPerEntryFloatsInt32);
const ForeachDef kAddcmulScalarDef = withScalar(kAddcmulScalar, 3, fAddcmul, iAddcmul, 3, kTensorScalar);
const ForeachDef kAddcmulScalarV2Def = withScalar(kAddcmulScalarV2, 3, fAddcmul, iAddcmul, 3, kHostScalar);
const ForeachDef kAddcmulScalarListDef =
    withScalar(kAddcmulScalarList, 3, fAddcmul, iAddcmul, 3, kPerEntryFloatsInt32);
const ForeachDef kLerpListDef = withScalar(kLerpList, 3, fLerpList, nullptr, 3, {});
const ForeachDef kLerpScalarDef =
    withScalar(kLerpScalar, 2, fLerpScalar, nullptr, 3, {ACL_FLOAT, ACL_DOUBLE});

// Norm, round-off, non-finite check and unscale.
const OpInfo kNorm{"aclnnForeachNorm", ExecUnit::kVector, kFloats, "y_i = (sum |x_i|^p)^(1/p), p = scalar"};
const OpInfo kRoundOff{"aclnnForeachRoundOffNumber", ExecUnit::kVector, kRoundTypes,
                       "y_i = round(x_i, roundMode)"};
const OpInfo kRoundOffV2{"aclnnForeachRoundOffNumberV2", ExecUnit::kVector, kRoundTypes,
                         "y_i = round(x_i, roundMode), roundMode an aclScalar"};
const OpInfo kUnscale{"aclnnForeachNonFiniteCheckAndUnscale", ExecUnit::kVector, kFloats,
                      "foundInf = 1 if any scaledGrads_i has inf or nan; scaledGrads_i *= invScale"};
const ForeachDef kNormDef = [] {
  ForeachDef d = withScalar(kNorm, 1, nullptr, nullptr, 2, {ACL_FLOAT, ACL_DOUBLE, ACL_INT64});  // |x|^p, add
  d.scalarFollowsX = false;
  d.mode = ForeachMode::kNorm;
  return d;
}();
ForeachDef roundOff(const OpInfo& info, const T& modeTypes) {
  ForeachDef d = withScalar(info, 1, fRoundOff, iRoundOff, 1, modeTypes);
  d.scalarFollowsX = false;
  return d;
}
const ForeachDef kRoundOffDef = roundOff(kRoundOff, {ACL_INT8}),
                 kRoundOffV2Def = roundOff(kRoundOffV2, {ACL_INT8, ACL_INT64});
const ForeachDef kUnscaleDef = [] {
  ForeachDef d = withScalar(kUnscale, 1, fMulS, nullptr, 2, {ACL_FLOAT});  // the check, the multiply
  d.scalarFollowsX = false;
  d.mode = ForeachMode::kUnscale;
  return d;
}();

const OpRegistrar kRegs[] = {OpRegistrar(kAbs),
                             OpRegistrar(kAcos),
                             OpRegistrar(kAsin),
                             OpRegistrar(kAtan),
                             OpRegistrar(kCos),
                             OpRegistrar(kCosh),
                             OpRegistrar(kErf),
                             OpRegistrar(kErfc),
                             OpRegistrar(kExp),
                             OpRegistrar(kExpm1),
                             OpRegistrar(kLog),
                             OpRegistrar(kLog2),
                             OpRegistrar(kLog10),
                             OpRegistrar(kLog1p),
                             OpRegistrar(kNeg),
                             OpRegistrar(kReciprocal),
                             OpRegistrar(kSigmoid),
                             OpRegistrar(kSign),
                             OpRegistrar(kSin),
                             OpRegistrar(kSinh),
                             OpRegistrar(kSqrt),
                             OpRegistrar(kTan),
                             OpRegistrar(kTanh),
                             OpRegistrar(kCopy),
                             OpRegistrar(kZero),
                             OpRegistrar(kAddList),
                             OpRegistrar(kAddListV2),
                             OpRegistrar(kSubList),
                             OpRegistrar(kSubListV2),
                             OpRegistrar(kMulList),
                             OpRegistrar(kDivList),
                             OpRegistrar(kMaximumList),
                             OpRegistrar(kMinimumList),
                             OpRegistrar(kPowList),
                             OpRegistrar(kAddScalar),
                             OpRegistrar(kAddScalarV2),
                             OpRegistrar(kAddScalarList),
                             OpRegistrar(kSubScalar),
                             OpRegistrar(kSubScalarV2),
                             OpRegistrar(kSubScalarList),
                             OpRegistrar(kMulScalar),
                             OpRegistrar(kMulScalarV2),
                             OpRegistrar(kMulScalarList),
                             OpRegistrar(kDivScalar),
                             OpRegistrar(kDivScalarV2),
                             OpRegistrar(kDivScalarList),
                             OpRegistrar(kMaximumScalar),
                             OpRegistrar(kMaximumScalarV2),
                             OpRegistrar(kMaximumScalarList),
                             OpRegistrar(kMinimumScalar),
                             OpRegistrar(kMinimumScalarV2),
                             OpRegistrar(kMinimumScalarList),
                             OpRegistrar(kPowScalar),
                             OpRegistrar(kPowScalarV2),
                             OpRegistrar(kPowScalarList),
                             OpRegistrar(kPowScalarAndTensor),
                             OpRegistrar(kAddcdivList),
                             OpRegistrar(kAddcdivScalar),
                             OpRegistrar(kAddcdivScalarV2),
                             OpRegistrar(kAddcdivScalarList),
                             OpRegistrar(kAddcmulList),
                             OpRegistrar(kAddcmulScalar),
                             OpRegistrar(kAddcmulScalarV2),
                             OpRegistrar(kAddcmulScalarList),
                             OpRegistrar(kLerpList),
                             OpRegistrar(kLerpScalar),
                             OpRegistrar(kNorm),
                             OpRegistrar(kRoundOff),
                             OpRegistrar(kRoundOffV2),
                             OpRegistrar(kUnscale)};

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::buildForeach;
using npusim::aclnn::ForeachArgs;
using npusim::aclnn::ForeachScalar;

namespace {

ForeachArgs lists(const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3,
                  const aclTensorList* out, bool single = false) {
  ForeachArgs a;
  a.x[0] = x1;
  a.x[1] = x2;
  a.x[2] = x3;
  a.out = out;
  if (single) a.xNames[0] = "x";
  return a;
}
ForeachArgs withTensor(ForeachArgs a, ForeachScalar kind, const char* name, const aclTensor* s) {
  a.scalarKind = kind;
  a.scalarName = name;
  a.scalarTensor = s;
  return a;
}
ForeachArgs withHost(ForeachArgs a, const char* name, const aclScalar* s) {
  a.scalarKind = ForeachScalar::kHost;
  a.scalarName = name;
  a.scalar = s;
  return a;
}
ForeachArgs withHostList(ForeachArgs a, const aclScalarList* s) {
  a.scalarKind = ForeachScalar::kHostList;
  a.scalarName = "scalars";
  a.scalarList = s;
  return a;
}

}  // namespace

// Entry points: aclnnForeach<Name>GetWorkspaceSize(<Params>) builds `args` for definition Def.
#define NPUSIM_FOREACH(Name, Def, Params, args)                                                            \
  extern "C" aclnnStatus aclnnForeach##Name##GetWorkspaceSize Params {                                     \
    return buildForeach(npusim::aclnn::Def, "aclnnForeach" #Name "GetWorkspaceSize", "aclnnForeach" #Name, \
                        args, workspaceSize, executor);                                                    \
  }                                                                                                        \
  NPUSIM_ACLNN_PHASE2(Foreach##Name)

#define NPUSIM_FOREACH_UNARY(Name, Def)                                                                      \
  NPUSIM_FOREACH(                                                                                            \
      Name, Def,                                                                                             \
      (const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor), \
      lists(x, nullptr, nullptr, out, true))
NPUSIM_FOREACH_UNARY(Abs, kAbsDef)
NPUSIM_FOREACH_UNARY(Acos, kAcosDef)
NPUSIM_FOREACH_UNARY(Asin, kAsinDef)
NPUSIM_FOREACH_UNARY(Atan, kAtanDef)
NPUSIM_FOREACH_UNARY(Cos, kCosDef)
NPUSIM_FOREACH_UNARY(Cosh, kCoshDef)
NPUSIM_FOREACH_UNARY(Erf, kErfDef)
NPUSIM_FOREACH_UNARY(Erfc, kErfcDef)
NPUSIM_FOREACH_UNARY(Exp, kExpDef)
NPUSIM_FOREACH_UNARY(Expm1, kExpm1Def)
NPUSIM_FOREACH_UNARY(Log, kLogDef)
NPUSIM_FOREACH_UNARY(Log2, kLog2Def)
NPUSIM_FOREACH_UNARY(Log10, kLog10Def)
NPUSIM_FOREACH_UNARY(Log1p, kLog1pDef)
NPUSIM_FOREACH_UNARY(Neg, kNegDef)
NPUSIM_FOREACH_UNARY(Reciprocal, kReciprocalDef)
NPUSIM_FOREACH_UNARY(Sigmoid, kSigmoidDef)
NPUSIM_FOREACH_UNARY(Sign, kSignDef)
NPUSIM_FOREACH_UNARY(Sin, kSinDef)
NPUSIM_FOREACH_UNARY(Sinh, kSinhDef)
NPUSIM_FOREACH_UNARY(Sqrt, kSqrtDef)
NPUSIM_FOREACH_UNARY(Tan, kTanDef)
NPUSIM_FOREACH_UNARY(Tanh, kTanhDef)
NPUSIM_FOREACH_UNARY(Copy, kCopyDef)

NPUSIM_FOREACH(ZeroInplace, kZeroDef,
               (const aclTensorList* x, uint64_t* workspaceSize, aclOpExecutor** executor), [&] {
                 ForeachArgs a = lists(x, nullptr, nullptr, x, true);
                 a.inplace = true;
                 return a;
               }())

#define NPUSIM_FOREACH_LIST(Name, Def)                                                        \
  NPUSIM_FOREACH(Name, Def,                                                                   \
                 (const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* out, \
                  uint64_t* workspaceSize, aclOpExecutor** executor),                         \
                 lists(x1, x2, nullptr, out))
NPUSIM_FOREACH_LIST(MulList, kMulListDef)
NPUSIM_FOREACH_LIST(DivList, kDivListDef)
NPUSIM_FOREACH_LIST(MaximumList, kMaximumListDef)
NPUSIM_FOREACH_LIST(MinimumList, kMinimumListDef)
NPUSIM_FOREACH_LIST(PowList, kPowListDef)

#define NPUSIM_FOREACH_LIST_ALPHA(Name, Def, AlphaT, args)                                      \
  NPUSIM_FOREACH(Name, Def,                                                                     \
                 (const aclTensorList* x1, const aclTensorList* x2, const AlphaT* alpha,        \
                  const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor), \
                 args)
NPUSIM_FOREACH_LIST_ALPHA(AddList, kAddListDef, aclTensor,
                          withTensor(lists(x1, x2, nullptr, out), ForeachScalar::kTensor, "alpha", alpha))
NPUSIM_FOREACH_LIST_ALPHA(SubList, kSubListDef, aclTensor,
                          withTensor(lists(x1, x2, nullptr, out), ForeachScalar::kTensor, "alpha", alpha))
NPUSIM_FOREACH_LIST_ALPHA(AddListV2, kAddListV2Def, aclScalar,
                          withHost(lists(x1, x2, nullptr, out), "alpha", alpha))
NPUSIM_FOREACH_LIST_ALPHA(SubListV2, kSubListV2Def, aclScalar,
                          withHost(lists(x1, x2, nullptr, out), "alpha", alpha))

NPUSIM_FOREACH(LerpList, kLerpListDef,
               (const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* weight,
                const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor),
               [&] {
                 ForeachArgs a = lists(x1, x2, weight, out);
                 a.xNames[2] = "weight";
                 return a;
               }())
NPUSIM_FOREACH(LerpScalar, kLerpScalarDef,
               (const aclTensorList* x1, const aclTensorList* x2, const aclScalar* weight,
                const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor),
               withHost(lists(x1, x2, nullptr, out), "weight", weight))

// x and a scalar: aclnnForeach<Op>Scalar (device tensor), <Op>ScalarV2 (aclScalar), <Op>ScalarList.
#define NPUSIM_FOREACH_SCALAR_FORMS(Op)                                                                    \
  NPUSIM_FOREACH(                                                                                          \
      Op##Scalar, k##Op##ScalarDef,                                                                        \
      (const aclTensorList* x, const aclTensor* scalar, const aclTensorList* out, uint64_t* workspaceSize, \
       aclOpExecutor** executor),                                                                          \
      withTensor(lists(x, nullptr, nullptr, out, true), ForeachScalar::kTensor, "scalar", scalar))         \
  NPUSIM_FOREACH(Op##ScalarV2, k##Op##ScalarV2Def,                                                         \
                 (const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,               \
                  uint64_t* workspaceSize, aclOpExecutor** executor),                                      \
                 withHost(lists(x, nullptr, nullptr, out, true), "scalar", scalar))                        \
  NPUSIM_FOREACH(Op##ScalarList, k##Op##ScalarListDef,                                                     \
                 (const aclTensorList* x, const aclScalarList* scalars, const aclTensorList* out,          \
                  uint64_t* workspaceSize, aclOpExecutor** executor),                                      \
                 withHostList(lists(x, nullptr, nullptr, out, true), scalars))
NPUSIM_FOREACH_SCALAR_FORMS(Add)
NPUSIM_FOREACH_SCALAR_FORMS(Sub)
NPUSIM_FOREACH_SCALAR_FORMS(Mul)
NPUSIM_FOREACH_SCALAR_FORMS(Div)
NPUSIM_FOREACH_SCALAR_FORMS(Maximum)
NPUSIM_FOREACH_SCALAR_FORMS(Minimum)
NPUSIM_FOREACH_SCALAR_FORMS(Pow)

NPUSIM_FOREACH(PowScalarAndTensor, kPowScalarAndTensorDef,
               (const aclScalar* scalar, const aclTensorList* x, const aclTensorList* out,
                uint64_t* workspaceSize, aclOpExecutor** executor),
               withHost(lists(x, nullptr, nullptr, out, true), "scalar", scalar))

// x1 + s * (x2 op x3): the scalar a device tensor (one element, or one per entry) or an aclScalar.
#define NPUSIM_FOREACH_POINTWISE(Name, Def, ScalarT, Param, args)                                       \
  NPUSIM_FOREACH(                                                                                       \
      Name, Def,                                                                                        \
      (const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3, const ScalarT* Param, \
       const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor),                    \
      args)
#define NPUSIM_FOREACH_POINTWISE_FORMS(Op)                                                               \
  NPUSIM_FOREACH_POINTWISE(                                                                              \
      Op##List, k##Op##ListDef, aclTensor, scalars,                                                      \
      withTensor(lists(x1, x2, x3, out), ForeachScalar::kTensorPerEntry, "scalars", scalars))            \
  NPUSIM_FOREACH_POINTWISE(                                                                              \
      Op##ScalarList, k##Op##ScalarListDef, aclTensor, scalars,                                          \
      withTensor(lists(x1, x2, x3, out), ForeachScalar::kTensorPerEntry, "scalars", scalars))            \
  NPUSIM_FOREACH_POINTWISE(Op##Scalar, k##Op##ScalarDef, aclTensor, scalar,                              \
                           withTensor(lists(x1, x2, x3, out), ForeachScalar::kTensor, "scalar", scalar)) \
  NPUSIM_FOREACH_POINTWISE(Op##ScalarV2, k##Op##ScalarV2Def, aclScalar, scalar,                          \
                           withHost(lists(x1, x2, x3, out), "scalar", scalar))
NPUSIM_FOREACH_POINTWISE_FORMS(Addcdiv)
NPUSIM_FOREACH_POINTWISE_FORMS(Addcmul)

NPUSIM_FOREACH(Norm, kNormDef,
               (const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,
                uint64_t* workspaceSize, aclOpExecutor** executor),
               withHost(lists(x, nullptr, nullptr, out, true), "scalar", scalar))
NPUSIM_FOREACH(RoundOffNumber, kRoundOffDef,
               (const aclTensorList* x, const aclTensor* roundMode, const aclTensorList* out,
                uint64_t* workspaceSize, aclOpExecutor** executor),
               withTensor(lists(x, nullptr, nullptr, out, true), ForeachScalar::kTensor, "roundMode",
                          roundMode))
NPUSIM_FOREACH(RoundOffNumberV2, kRoundOffV2Def,
               (const aclTensorList* x, const aclScalar* roundMode, const aclTensorList* out,
                uint64_t* workspaceSize, aclOpExecutor** executor),
               withHost(lists(x, nullptr, nullptr, out, true), "roundMode", roundMode))
NPUSIM_FOREACH(NonFiniteCheckAndUnscale, kUnscaleDef,
               (const aclTensorList* scaledGrads, const aclTensor* foundInf, const aclTensor* invScale,
                uint64_t* workspaceSize, aclOpExecutor** executor),
               [&] {
                 ForeachArgs a = withTensor(lists(scaledGrads, nullptr, nullptr, scaledGrads),
                                            ForeachScalar::kTensor, "invScale", invScale);
                 a.xNames[0] = "scaledGrads";
                 a.inplace = true;
                 a.extraOut = foundInf;
                 return a;
               }())
