// Elementwise math of ops-math's math/ and experimental/math/ folders m-z (issue 28): the
// experimental variants under their own exported names (MaximumV2, MulV2, SubV2, RealDiv, Pow,
// Pow2, SinhV2, SquareV2, TanV2, TanV3, TruncV2), TruncateDiv, TruncateMod, MulNoNan, Exp2,
// RoundDecimals, XLogYScalarSelf, and MaxN / MinN over a tensor list. Each is an entry on the
// unary (unary_op.h) or binary (binary_op.h) engine, which own the checks, broadcasting, type
// promotion, strided views and the cost model; accepted types are those of each operator's
// op definition (experimental) or doc (math/<op>/docs).
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

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
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/unary_op.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kF32F16 = {ACL_FLOAT, ACL_FLOAT16};
const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kAllReal = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                           ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};

// --- one tensor ---
template <double (*F)(double)>
void apply(float* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(F(v[i]));
}
template <double (*F)(double)>
void apply(double* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = F(v[i]);
}
double sinhOf(double x) { return std::sinh(x); }
double squareOf(double x) { return x * x; }
double tanOf(double x) { return std::tan(x); }
double truncOf(double x) { return std::trunc(x); }
double exp2Of(double x) { return std::exp2(x); }
UnaryDef unary(const OpInfo& info, void (*f32)(float*, int64_t), void (*f64)(double*, int64_t), int passes) {
  return UnaryDef{&info, f32, f64, nullptr, passes};
}

const OpInfo kSinhV2{"aclnnSinhV2", ExecUnit::kVector, kF32F16, "y = sinh(x)"};
const OpInfo kSquareV2{"aclnnSquareV2", ExecUnit::kVector, kF32F16, "z = x * x"};
const OpInfo kTanV2{"aclnnTanV2", ExecUnit::kVector, kF32F16, "y = tan(x)"};
const OpInfo kTanV3{"aclnnTanV3", ExecUnit::kVector, kF32F16, "y = tan(x)"};
const OpInfo kTruncV2{"aclnnTruncV2", ExecUnit::kVector, kF32F16, "z = x rounded toward zero"};
// ops-math math/pow/docs/aclnnExp2: integer and bool self computed as fp32 into a floating out.
const OpInfo kExp2{"aclnnExp2", ExecUnit::kVector, kAllReal, "out = 2 ^ self"};
const OpInfo kRoundDecimals{"aclnnRoundDecimals",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64},
                            "out = round(self * 10^decimals) / 10^decimals, halves to even"};

const UnaryDef kSinhV2Def = unary(kSinhV2, apply<sinhOf>, apply<sinhOf>, 4);
const UnaryDef kSquareV2Def = unary(kSquareV2, apply<squareOf>, apply<squareOf>, 1);
const UnaryDef kTanV2Def = unary(kTanV2, apply<tanOf>, apply<tanOf>, 8);
const UnaryDef kTanV3Def = unary(kTanV3, apply<tanOf>, apply<tanOf>, 8);
const UnaryDef kTruncV2Def = unary(kTruncV2, apply<truncOf>, apply<truncOf>, 1);
const UnaryDef kExp2Def = unary(kExp2, apply<exp2Of>, apply<exp2Of>, 2);

// p[0]: decimals. Integers with decimals >= 0 keep their value.
double roundDecimals(double x, const UnaryParams& p) {
  if (p[0] == 0) return std::nearbyint(x);
  const double s = std::pow(10.0, p[0]);
  return std::nearbyint(x * s) / s;
}
UnaryDef roundDecimalsDef() {
  UnaryDef d{&kRoundDecimals, nullptr, nullptr, nullptr, 3};
  d.withParams = roundDecimals;
  return d;
}
const UnaryDef kRoundDecimalsDef = roundDecimalsDef();

// --- two tensors ---
double truncDiv(double a, double b) { return std::trunc(a / b); }
int64_t truncDivInt(int64_t a, int64_t b) {  // x / 0 gives 0 (the device raises no error)
  if (b == 0) return 0;
  if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));  // INT64_MIN / -1 wraps
  return a / b;
}
double mulNoNan(double a, double b) { return b == 0 ? 0.0 : a * b; }
int64_t mulNoNanInt(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
// XLogYScalarSelf runs with the tensor `other` as the engine's self and the scalar as its other.
double xlogySwapped(double y, double x) { return y != y ? y : x == 0 ? 0.0 : x * std::log(y); }

const BinaryFn kTruncDivFn{truncDiv, truncDivInt, 2};
const BinaryFn kMulNoNanFn{mulNoNan, mulNoNanInt, 2};
const BinaryFn kXlogySwappedFn{xlogySwapped, nullptr, 3};

const std::vector<aclDataType> kMaxV2Types = {ACL_FLOAT,   ACL_INT32, ACL_INT16,
                                              ACL_FLOAT16, ACL_BF16,  ACL_INT8};
const OpInfo kMaximumV2{"aclnnMaximumV2", ExecUnit::kVector, kMaxV2Types, "y = max(x1, x2)"};
const OpInfo kMulV2{
    "aclnnMulV2", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_INT16, ACL_INT32}, "y = x1 * x2"};
const OpInfo kSubV2{
    "aclnnSubV2", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT32}, "y = x1 - x2"};
const OpInfo kRealDiv{"aclnnRealDiv",
                      ExecUnit::kVector,
                      {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_BOOL},
                      "y = x1 / x2 in floating point"};
const std::vector<aclDataType> kPowTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8,
                                            ACL_UINT8, ACL_INT16,   ACL_INT32};
const OpInfo kPow{"aclnnPow", ExecUnit::kVector, kPowTypes, "y = x ^ exponent"};
const OpInfo kPow2{"aclnnPow2", ExecUnit::kVector, kPowTypes, "y = x1 ^ x2"};
const OpInfo kTruncateDiv{
    "aclnnTruncateDiv",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "y = trunc(x1 / x2)"};
const OpInfo kTruncateMod{"aclnnTruncateMod",
                          ExecUnit::kVector,
                          {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT32},
                          "y = x1 - trunc(x1 / x2) * x2 (sign of x1)"};
const OpInfo kMulNoNan{"aclnnMulNoNan", ExecUnit::kVector, kFloats, "z = y == 0 ? 0 : x * y"};
const OpInfo kXLogYScalarSelf{"aclnnXLogYScalarSelf",
                              ExecUnit::kVector,
                              {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
                               ACL_INT32, ACL_INT64, ACL_BOOL},
                              "out = self * ln(other), self a host scalar; 0 where self is 0"};
const std::vector<aclDataType> kMaxNTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8,
                                             ACL_INT32,   ACL_INT64, ACL_BF16};
const OpInfo kMaxN{"aclnnMaxN", ExecUnit::kVector, kMaxNTypes, "out = max(tensors[0], tensors[1], ...)"};
const OpInfo kMinN{"aclnnMinN", ExecUnit::kVector, kMaxNTypes, "out = min(tensors[0], tensors[1], ...)"};

const OpRegistrar kRegistrars[] = {
    OpRegistrar(kSinhV2),        OpRegistrar(kSquareV2),        OpRegistrar(kTanV2),
    OpRegistrar(kTanV3),         OpRegistrar(kTruncV2),         OpRegistrar(kExp2),
    OpRegistrar(kRoundDecimals), OpRegistrar(kMaximumV2),       OpRegistrar(kMulV2),
    OpRegistrar(kSubV2),         OpRegistrar(kRealDiv),         OpRegistrar(kPow),
    OpRegistrar(kPow2),          OpRegistrar(kTruncateDiv),     OpRegistrar(kTruncateMod),
    OpRegistrar(kMulNoNan),      OpRegistrar(kXLogYScalarSelf), OpRegistrar(kMaxN),
    OpRegistrar(kMinN)};

// MaxN / MinN: the list folded pairwise on the binary kernel, out = op(out, tensors[k]).
class FoldInstance : public OpInstanceBase<FoldInstance> {
 public:
  BinarySpec spec;

  rt::OpWork work() const override {
    int casts = 0;
    for (const TensorDesc& d : inputs) casts += d.dtype != spec.calcType ? 1 : 0;
    // one compare-and-select per further tensor
    return vectorTiles(
        VectorPass{&inputs, &outputs[0], outputs[0].numel(), casts + static_cast<int>(inputs.size()) - 2});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (in.size() == 1) {  // max of one tensor: itself, broadcast and cast into out
      BinarySpec first = spec;
      first.kind = BinaryKind::kMax;
      return binaryKernel(first, in[0], in[0], out[0]);
    }
    binaryKernel(spec, in[0], in[1], out[0]);
    for (size_t k = 2; k < in.size(); ++k) binaryKernel(spec, out[0], in[k], out[0]);
  }
};

int32_t buildFold(const OpInfo& info, BinaryKind kind, const aclTensorList* tensors, const aclTensor* out,
                  uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = info.name + "GetWorkspaceSize";
  const char* a = api.c_str();
  rt::chargeOpPrepare(a);
  int32_t st = checkNotNull(a, {{"tensors", tensors}, {"out", out}});
  if (st != kSuccess) return st;
  if (tensors->items.empty()) return fail(a, kErrParamInvalid, "tensors is empty");
  if ((st = checkTensor(a, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(a, "out", out->desc.dtype, info)) != kSuccess) return st;
  auto inst = std::make_unique<FoldInstance>();
  inst->name = info.name;
  inst->spec.kind = kind;
  aclDataType promoted = ACL_DT_UNDEFINED;
  std::vector<int64_t> shape;
  for (size_t i = 0; i < tensors->items.size(); ++i) {
    const aclTensor* t = tensors->items[i];
    const std::string name = fmt::format("tensors[{}]", i);
    if ((st = checkNotNull(a, {{name.c_str(), t}})) != kSuccess) return st;
    if ((st = checkTensor(a, name.c_str(), t->desc)) != kSuccess) return st;
    if ((st = checkDtype(a, name.c_str(), t->desc.dtype, info)) != kSuccess) return st;
    promoted = i == 0 ? t->desc.dtype : promoteTypes(promoted, t->desc.dtype);
    std::vector<int64_t> next;
    if (i == 0) {
      next = t->desc.shape;
    } else if (!broadcastShapes(shape, t->desc.shape, &next)) {
      return fail(a, kErrParamInvalid,
                  fmt::format("{} shape {} does not broadcast with {}", name, shapeString(t->desc.shape),
                              shapeString(shape)));
    }
    shape = next;
    addInput(*inst, "tensors", t);
  }
  if (promoted == ACL_DT_UNDEFINED || !canCast(promoted, out->desc.dtype)) {
    return fail(a, kErrParamInvalid,
                fmt::format("the tensors' promoted type {} cannot be cast to out's type {}",
                            dtypeName(promoted), dtypeName(out->desc.dtype)));
  }
  if ((st = checkShape(a, "out", out->desc.shape, shape)) != kSuccess) return st;
  inst->spec.calcType = promoted;
  addOutput(*inst, "out", out);
  return makeExecutor(a, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

NPUSIM_ACLNN_UNARY_AS(SinhV2, kSinhV2Def, const aclTensor)
NPUSIM_ACLNN_UNARY_AS(SquareV2, kSquareV2Def, const aclTensor)
NPUSIM_ACLNN_UNARY_AS(TanV2, kTanV2Def, const aclTensor)
NPUSIM_ACLNN_UNARY_AS(TanV3, kTanV3Def, const aclTensor)
NPUSIM_ACLNN_UNARY_AS(TruncV2, kTruncV2Def, const aclTensor)
NPUSIM_ACLNN_UNARY(Exp2, kExp2Def)
NPUSIM_ACLNN_UNARY_INPLACE(Exp2, kExp2Def)

extern "C" aclnnStatus aclnnRoundDecimalsGetWorkspaceSize(const aclTensor* self, int64_t decimals,
                                                          aclTensor* out, WS) {
  return buildUnary(kRoundDecimalsDef, "aclnnRoundDecimalsGetWorkspaceSize", "aclnnRoundDecimals", self, out,
                    false, ws, ex, {static_cast<double>(decimals), 0, 0, 0},
                    fmt::format("decimals={}", decimals));
}
NPUSIM_ACLNN_PHASE2(RoundDecimals)
extern "C" aclnnStatus aclnnInplaceRoundDecimalsGetWorkspaceSize(aclTensor* selfRef, int64_t decimals, WS) {
  return buildUnary(kRoundDecimalsDef, "aclnnInplaceRoundDecimalsGetWorkspaceSize",
                    "aclnnInplaceRoundDecimals", selfRef, selfRef, true, ws, ex,
                    {static_cast<double>(decimals), 0, 0, 0}, fmt::format("decimals={}", decimals));
}
NPUSIM_ACLNN_PHASE2(InplaceRoundDecimals)

NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(MaximumV2, kMaximumV2, kMax, const aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(MulV2, kMulV2, kMul, const aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(SubV2, kSubV2, kSub, const aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(RealDiv, kRealDiv, kDiv, const aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(Pow, kPow, kPow, const aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(Pow2, kPow2, kPow, const aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(TruncateDiv, kTruncateDiv, kCustom, const aclTensor, &kTruncDivFn)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(TruncateMod, kTruncateMod, kFmod, const aclTensor, nullptr)
NPUSIM_ACLNN_BINARY_OUT_OF_PLACE(MulNoNan, kMulNoNan, kCustom, const aclTensor, &kMulNoNanFn)

extern "C" aclnnStatus aclnnXLogYScalarSelfGetWorkspaceSize(const aclScalar* self, const aclTensor* other,
                                                            aclTensor* out, WS) {
  const char* api = "aclnnXLogYScalarSelfGetWorkspaceSize";
  if (self == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"self", self}});
  }
  return buildBinaryScalar(
      {api, "aclnnXLogYScalarSelf", &kXLogYScalarSelf, BinaryKind::kCustom, false, &kXlogySwappedFn}, other,
      self, nullptr, out, false, ws, ex);
}
NPUSIM_ACLNN_PHASE2(XLogYScalarSelf)

extern "C" aclnnStatus aclnnMaxNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, WS) {
  return buildFold(kMaxN, BinaryKind::kMax, tensors, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(MaxN)
extern "C" aclnnStatus aclnnMinNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, WS) {
  return buildFold(kMinN, BinaryKind::kMin, tensors, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(MinN)
