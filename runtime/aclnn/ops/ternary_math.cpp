// Elementwise math of three or more operands (issue 28, math a-l): each operator is its public
// definition (ops-math math/<op>/docs or experimental/math/<op>/README), its accepted types and
// its entry points; ternary_op.h owns broadcasting, promotion, views, in-place forms, empty
// tensors and the cost model. Vector passes: one per multiply, add or divide of the formula.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "aclnnop/aclnn_add_mat_mat_elements_plus.h"
#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_axpy_v2.h"
#include "aclnnop/aclnn_axpy_v3.h"
#include "aclnnop/aclnn_bias_add.h"
#include "aclnnop/aclnn_eltwise.h"
#include "aclnnop/aclnn_fused_mul_add_n.h"
#include "aclnnop/aclnn_isclose.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_sum.h"
#include "aclnnop/aclnn_sum_v2.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/ternary_op.h"

namespace npusim::aclnn {
namespace {

// --- definitions (x: the operands in the entry point's order, p: its scalars) ---
double addcdiv(const double* x, size_t, const PointwiseParams& p) { return x[0] + p[0] * (x[1] / x[2]); }
double addcmul(const double* x, size_t, const PointwiseParams& p) { return x[0] + p[0] * x[1] * x[2]; }
double lerp(const double* x, size_t, const PointwiseParams&) { return x[0] + x[2] * (x[1] - x[0]); }
double lerps(const double* x, size_t, const PointwiseParams& p) { return x[0] + p[0] * (x[1] - x[0]); }
double axpy(const double* x, size_t, const PointwiseParams& p) { return x[0] + p[0] * x[1]; }  // x + a*y
double fusedMulAddN(const double* x, size_t, const PointwiseParams&) { return x[0] * x[2] + x[1]; }
double addMatMat(const double* x, size_t, const PointwiseParams&) { return x[0] * x[3] + x[4] * x[1] * x[2]; }
double sumOf(const double* x, size_t n, const PointwiseParams&) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += x[i];
  return s;
}
double eltwise(const double* x, size_t n, const PointwiseParams& p) {  // p[0]: mode, p[1..]: coeff
  double r = p[0] == 0 ? 1 : p[0] == 1 ? 0 : x[0];
  for (size_t i = 0; i < n; ++i) {
    if (p[0] == 0)
      r *= x[i];
    else if (p[0] == 1)
      r += (p.size() > 1 ? p[1 + i] : 1.0) * x[i];
    else
      r = std::isnan(x[i]) || x[i] > r ? x[i] : r;  // NaN wins, as aclnnMaximum
  }
  return r;
}
// |self - other| <= atol + rtol |other| for finite values; infinities close only when equal;
// NaN close to NaN only with equal_nan (p: rtol, atol, equal_nan).
double isClose(const double* x, size_t, const PointwiseParams& p) {
  const double a = x[0], b = x[1];
  if (std::isnan(a) || std::isnan(b)) return p[2] != 0 && std::isnan(a) && std::isnan(b) ? 1 : 0;
  if (a == b) return 1;
  if (std::isinf(a) || std::isinf(b)) return 0;
  return std::fabs(a - b) <= p[1] + p[0] * std::fabs(b) ? 1 : 0;
}

const std::vector<aclDataType> kNnFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kBoolOut = {ACL_BOOL};

// Types from each operator's doc.
const OpInfo kAddcdiv{"aclnnAddcdiv",
                      ExecUnit::kVector,
                      {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT64},
                      "out = self + value * tensor1 / tensor2"};
const OpInfo kAddcmul{
    "aclnnAddcmul",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8},
    "out = self + value * tensor1 * tensor2"};
const OpInfo kLerp{"aclnnLerp",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE},
                   "out = self + weight * (end - self)"};
const OpInfo kLerps{"aclnnLerps",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE},
                    "out = self + weight * (end - self), weight a scalar"};
const OpInfo kAxpyV2{
    "aclnnAxpyV2", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}, "y = x1 + alpha * x2"};
const OpInfo kAxpyV3{"aclnnAxpyV3", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "z = a * x + y"};
const OpInfo kFusedMulAddN{"aclnnFusedMulAddN",
                           ExecUnit::kVector,
                           {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT16},
                           "y = x1 * x3[0] + x2"};
const OpInfo kAddMatMat{"aclnnAddMatMatElementsPlus", ExecUnit::kVector, kNnFloats,
                        "cOut = c * beta + alpha * a * b"};
const OpInfo kBiasAdd{"aclnnBiasAdd",
                      ExecUnit::kVector,
                      {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32},
                      "out = x + bias along the channel dimension"};
const OpInfo kEltwise{"aclnnEltwise", ExecUnit::kVector, kNnFloats,
                      "out = product (mode 0), weighted sum (1) or maximum (2) of the inputs"};
const OpInfo kAddN{"aclnnAddN",
                   ExecUnit::kVector,
                   {ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_BF16, ACL_FLOAT},
                   "out = sum of the tensors"};
const OpInfo kSum{"aclnnSum",
                  ExecUnit::kVector,
                  {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_UINT8},
                  "out = sum of the tensors"};
const OpInfo kSumV2{"aclnnSumV2",
                    ExecUnit::kVector,
                    {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_UINT8},
                    "out = sum of the tensors"};
const OpInfo kIsClose{"aclnnIsClose",
                      ExecUnit::kVector,
                      {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8, ACL_UINT8,
                       ACL_DOUBLE, ACL_BOOL, ACL_BF16},
                      "out = |self - other| <= atol + rtol * |other|"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kAddcdiv),      OpRegistrar(kAddcmul),   OpRegistrar(kLerp),
                                   OpRegistrar(kLerps),        OpRegistrar(kAxpyV2),    OpRegistrar(kAxpyV3),
                                   OpRegistrar(kFusedMulAddN), OpRegistrar(kAddMatMat), OpRegistrar(kBiasAdd),
                                   OpRegistrar(kEltwise),      OpRegistrar(kAddN),      OpRegistrar(kSum),
                                   OpRegistrar(kSumV2),        OpRegistrar(kIsClose)};

const TernaryDef kAddcdivDef{&kAddcdiv, addcdiv, 3};
const TernaryDef kAddcmulDef{&kAddcmul, addcmul, 3};
const TernaryDef kLerpDef{&kLerp, lerp, 3};
const TernaryDef kLerpsDef{&kLerps, lerps, 3};
const TernaryDef kAxpyV2Def{&kAxpyV2, axpy, 2};
const TernaryDef kAxpyV3Def{&kAxpyV3, axpy, 2};
const TernaryDef kFusedMulAddNDef{&kFusedMulAddN, fusedMulAddN, 2, nullptr, true};
const TernaryDef kAddMatMatDef{&kAddMatMat, addMatMat, 4};
const TernaryDef kBiasAddDef{&kBiasAdd, sumOf, 1, nullptr, true};
const TernaryDef kEltwiseDef{&kEltwise, eltwise, 2, nullptr, true};
const TernaryDef kAddNDef{&kAddN, sumOf, 1};
const TernaryDef kSumDef{&kSum, sumOf, 1, nullptr, true};
const TernaryDef kSumV2Def{&kSumV2, sumOf, 1, nullptr, true};
const TernaryDef kIsCloseDef{&kIsClose, isClose, 5, &kBoolOut};

std::string api1(const char* op) { return std::string(op) + "GetWorkspaceSize"; }

// The value of a required host scalar; a null one is 161001, charged as phase 1 like any refusal.
int32_t requiredScalar(const char* api, const char* name, const aclScalar* s, double* v) {
  if (s == nullptr) rt::chargeOpPrepare(api);
  return scalarParam(api, name, s, v);
}

// self (+ tensor1, tensor2) with a required scalar `value`: Addcdiv, Addcmul and in-place forms.
int32_t withValue(const TernaryDef& def, const char* op, const aclTensor* self, const aclTensor* t1,
                  const aclTensor* t2, const aclScalar* value, const aclTensor* out, bool inplace,
                  uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = api1(op);
  double v = 0;
  const int32_t st = requiredScalar(api.c_str(), "value", value, &v);
  if (st != kSuccess) return st;
  return buildTernary(def,
                      {api.c_str(),
                       op,
                       {{inplace ? "selfRef" : "self", self}, {"tensor1", t1}, {"tensor2", t2}},
                       inplace ? "selfRef" : "out",
                       out,
                       inplace,
                       {v},
                       "value=" + value->value.str()},
                      ws, ex);
}

// The tensors of a list as operands named tensors[i]; an empty or null list is refused.
int32_t listOperands(const char* api, const char* name, const aclTensorList* list,
                     std::vector<std::pair<std::string, const aclTensor*>>* xs) {
  if (list == nullptr) {
    rt::chargeOpPrepare(api);
    return checkNotNull(api, {{name, list}});
  }
  if (list->items.empty()) {
    rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid, fmt::format("{} must hold at least one tensor", name));
  }
  for (size_t i = 0; i < list->items.size(); ++i)
    xs->emplace_back(fmt::format("{}[{}]", name, i), list->items[i]);
  return kSuccess;
}

int32_t sumList(const TernaryDef& def, const char* op, const aclTensorList* tensors, const aclTensor* out,
                uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = api1(op);
  TernaryArgs a{api.c_str(), op, {}, "out", out};
  const int32_t st = listOperands(api.c_str(), "tensors", tensors, &a.xs);
  if (st != kSuccess) return st;
  return buildTernary(def, a, ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

// aclnn<Name>(self, tensor1, tensor2, value, out) and aclnnInplace<Name>(selfRef, tensor1, tensor2, value).
#define NPUSIM_WITH_VALUE(Name, def, OutT)                                                                  \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1,     \
                                                       const aclTensor* tensor2, const aclScalar* value,    \
                                                       OutT* out, uint64_t* ws, aclOpExecutor** ex) {       \
    return withValue(def, "aclnn" #Name, self, tensor1, tensor2, value, out, false, ws, ex);                \
  }                                                                                                         \
  NPUSIM_ACLNN_PHASE2(Name)                                                                                 \
  extern "C" aclnnStatus aclnnInplace##Name##GetWorkspaceSize(                                              \
      const aclTensor* selfRef, const aclTensor* tensor1, const aclTensor* tensor2, const aclScalar* value, \
      uint64_t* ws, aclOpExecutor** ex) {                                                                   \
    return withValue(def, "aclnnInplace" #Name, selfRef, tensor1, tensor2, value, selfRef, true, ws, ex);   \
  }                                                                                                         \
  NPUSIM_ACLNN_PHASE2(Inplace##Name)
NPUSIM_WITH_VALUE(Addcdiv, kAddcdivDef, const aclTensor)
NPUSIM_WITH_VALUE(Addcmul, kAddcmulDef, aclTensor)
#undef NPUSIM_WITH_VALUE

extern "C" aclnnStatus aclnnLerpGetWorkspaceSize(const aclTensor* self, const aclTensor* end,
                                                 const aclTensor* weight, aclTensor* out, uint64_t* ws,
                                                 aclOpExecutor** ex) {
  return buildTernary(kLerpDef,
                      {"aclnnLerpGetWorkspaceSize",
                       "aclnnLerp",
                       {{"self", self}, {"end", end}, {"weight", weight}},
                       "out",
                       out},
                      ws, ex);
}
NPUSIM_ACLNN_PHASE2(Lerp)
extern "C" aclnnStatus aclnnInplaceLerpGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end,
                                                        const aclTensor* weight, uint64_t* ws,
                                                        aclOpExecutor** ex) {
  return buildTernary(kLerpDef,
                      {"aclnnInplaceLerpGetWorkspaceSize",
                       "aclnnInplaceLerp",
                       {{"selfRef", selfRef}, {"end", end}, {"weight", weight}},
                       "selfRef",
                       selfRef,
                       true},
                      ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceLerp)

namespace {
int32_t lerpScalar(const char* op, const aclTensor* self, const aclTensor* end, const aclScalar* weight,
                   const aclTensor* out, bool inplace, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = api1(op);
  double w = 0;
  const int32_t st = requiredScalar(api.c_str(), "weight", weight, &w);
  if (st != kSuccess) return st;
  const char* selfName = inplace ? "selfRef" : "self";
  return buildTernary(kLerpsDef,
                      {api.c_str(),
                       op,
                       {{selfName, self}, {"end", end}},
                       inplace ? "selfRef" : "out",
                       out,
                       inplace,
                       {w},
                       "weight=" + weight->value.str()},
                      ws, ex);
}
}  // namespace

extern "C" aclnnStatus aclnnLerpsGetWorkspaceSize(const aclTensor* self, const aclTensor* end,
                                                  const aclScalar* weight, aclTensor* out, uint64_t* ws,
                                                  aclOpExecutor** ex) {
  return lerpScalar("aclnnLerps", self, end, weight, out, false, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Lerps)
extern "C" aclnnStatus aclnnInplaceLerpsGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end,
                                                         const aclScalar* weight, uint64_t* ws,
                                                         aclOpExecutor** ex) {
  return lerpScalar("aclnnInplaceLerps", selfRef, end, weight, selfRef, true, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceLerps)

// alpha is an input declared .Scalar() in the op definition: a host scalar in the aclnn API.
extern "C" aclnnStatus aclnnAxpyV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                   const aclScalar* alpha, const aclTensor* y, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  const char* api = "aclnnAxpyV2GetWorkspaceSize";
  double a = 0;
  const int32_t st = requiredScalar(api, "alpha", alpha, &a);
  if (st != kSuccess) return st;
  return buildTernary(
      kAxpyV2Def,
      {api, "aclnnAxpyV2", {{"x1", x1}, {"x2", x2}}, "y", y, false, {a}, "alpha=" + alpha->value.str()}, ws,
      ex);
}
NPUSIM_ACLNN_PHASE2(AxpyV2)

// z = a * x + y: the operands in the order (y, x) so that axpy's "first + p * second" applies.
extern "C" aclnnStatus aclnnAxpyV3GetWorkspaceSize(const aclTensor* x, const aclTensor* y, double a,
                                                   const aclTensor* z, uint64_t* ws, aclOpExecutor** ex) {
  return buildTernary(kAxpyV3Def,
                      {"aclnnAxpyV3GetWorkspaceSize",
                       "aclnnAxpyV3",
                       {{"y", y}, {"x", x}},
                       "z",
                       z,
                       false,
                       {a},
                       fmt::format("a={}", a)},
                      ws, ex);
}
NPUSIM_ACLNN_PHASE2(AxpyV3)

extern "C" aclnnStatus aclnnFusedMulAddNGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                         const aclTensor* x3, aclTensor* y, uint64_t* ws,
                                                         aclOpExecutor** ex) {
  const char* api = "aclnnFusedMulAddNGetWorkspaceSize";
  if (x3 != nullptr && x3->desc.numel() != 1) {
    npusim::rt::chargeOpPrepare(api);
    return fail(
        api, kErrParamInvalid,
        fmt::format("x3 must hold one element (the multiplier), not {}", shapeString(x3->desc.shape)));
  }
  return buildTernary(kFusedMulAddNDef,
                      {api, "aclnnFusedMulAddN", {{"x1", x1}, {"x2", x2}, {"x3", x3}}, "y", y}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(FusedMulAddN)

extern "C" aclnnStatus aclnnAddMatMatElementsPlusGetWorkspaceSize(const aclTensor* c, const aclTensor* a,
                                                                  const aclTensor* b, const aclTensor* beta,
                                                                  const aclTensor* alpha, aclTensor* cOut,
                                                                  uint64_t* ws, aclOpExecutor** ex) {
  return buildTernary(kAddMatMatDef,
                      {"aclnnAddMatMatElementsPlusGetWorkspaceSize",
                       "aclnnAddMatMatElementsPlus",
                       {{"c", c}, {"a", a}, {"b", b}, {"beta", beta}, {"alpha", alpha}},
                       "cOut",
                       cOut},
                      ws, ex);
}
NPUSIM_ACLNN_PHASE2(AddMatMatElementsPlus)

// bias (1-D, the length of x's channel dimension) seen as a tensor of x's rank that varies along
// the channel only: the last dimension for NHWC, NDHWC and ND (the default NHWC), the second for
// NCHW and NCDHW.
extern "C" aclnnStatus aclnnBiasAddGetWorkspaceSize(const aclTensor* x, const aclTensor* bias,
                                                    char* dataFormatOptional, const aclTensor* out,
                                                    uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnBiasAddGetWorkspaceSize";
  const std::string format = dataFormatOptional == nullptr ? "NHWC" : dataFormatOptional;
  if (x == nullptr || bias == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"x", x}, {"bias", bias}});
  }
  const bool channelFirst = format == "NCHW" || format == "NCDHW";
  if (!channelFirst && format != "NHWC" && format != "NDHWC" && format != "ND") {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("dataFormat \"{}\" is not NHWC, NCHW, NDHWC, NCDHW or ND", format));
  }
  const size_t rank = x->desc.shape.size();
  const size_t c = channelFirst ? 1 : rank - 1;
  if (rank < (channelFirst ? 2u : 1u) || bias->desc.shape.size() != 1 ||
      bias->desc.shape[0] != x->desc.shape[c]) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("bias {} must be 1-D with the length of x {}'s channel dimension ({})",
                            shapeString(bias->desc.shape), shapeString(x->desc.shape), format));
  }
  aclTensor view{bias->desc};
  view.desc.shape.assign(rank, 1);
  view.desc.strides.assign(rank, 0);
  view.desc.shape[c] = bias->desc.shape[0];
  view.desc.strides[c] = bias->desc.strides[0];
  return buildTernary(
      kBiasAddDef,
      {api, "aclnnBiasAdd", {{"x", x}, {"bias", &view}}, "out", out, false, {}, "dataFormat=" + format}, ws,
      ex);
}
NPUSIM_ACLNN_PHASE2(BiasAdd)

// mode 0 product, 1 sum weighted by coeff (all 1 when coeff is null), 2 maximum; 1 to 32 inputs
// of one shape and type (experimental/math/eltwise README).
extern "C" aclnnStatus aclnnEltwiseGetWorkspaceSize(const aclTensorList* inputs, int64_t mode,
                                                    const aclFloatArray* coeff, aclTensor* out, uint64_t* ws,
                                                    aclOpExecutor** ex) {
  const char* api = "aclnnEltwiseGetWorkspaceSize";
  TernaryArgs a{
      api, "aclnnEltwise", {}, "out", out, false, {static_cast<double>(mode)}, fmt::format("mode={}", mode)};
  int32_t st = listOperands(api, "inputs", inputs, &a.xs);
  if (st != kSuccess) return st;
  const auto refuse = [&](const std::string& msg) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid, msg);
  };
  if (mode < 0 || mode > 2)
    return refuse(fmt::format("mode {} is not 0 (product), 1 (sum) or 2 (max)", mode));
  if (a.xs.size() > 32) return refuse(fmt::format("{} inputs, at most 32", a.xs.size()));
  for (const auto& [name, t] : a.xs) {
    if (t != nullptr && a.xs[0].second != nullptr && t->desc.shape != a.xs[0].second->desc.shape) {
      return refuse(fmt::format("{} has shape {}, inputs[0] {}", name, shapeString(t->desc.shape),
                                shapeString(a.xs[0].second->desc.shape)));
    }
  }
  if (mode == 1 && coeff != nullptr) {
    if (coeff->values.size() != a.xs.size()) {
      return refuse(fmt::format("coeff holds {} values for {} inputs", coeff->values.size(), a.xs.size()));
    }
    for (float v : coeff->values) a.params.push_back(v);
  }
  return buildTernary(kEltwiseDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Eltwise)

// aclnn<Name>(tensors, out): the sum of a list.
#define NPUSIM_SUM_LIST(Name, def)                                                                   \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, \
                                                       uint64_t* ws, aclOpExecutor** ex) {           \
    return sumList(def, "aclnn" #Name, tensors, out, ws, ex);                                        \
  }                                                                                                  \
  NPUSIM_ACLNN_PHASE2(Name)
NPUSIM_SUM_LIST(AddN, kAddNDef)
NPUSIM_SUM_LIST(Sum, kSumDef)
NPUSIM_SUM_LIST(SumV2, kSumV2Def)
#undef NPUSIM_SUM_LIST

extern "C" aclnnStatus aclnnIsCloseGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                    double rtol, double atol, bool equalNan, aclTensor* out,
                                                    uint64_t* ws, aclOpExecutor** ex) {
  return buildTernary(kIsCloseDef,
                      {"aclnnIsCloseGetWorkspaceSize",
                       "aclnnIsClose",
                       {{"self", self}, {"other", other}},
                       "out",
                       out,
                       false,
                       {rtol, atol, equalNan ? 1.0 : 0.0},
                       fmt::format("rtol={}, atol={}, equalNan={}", rtol, atol, equalNan)},
                      ws, ex);
}
NPUSIM_ACLNN_PHASE2(IsClose)
