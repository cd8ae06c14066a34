// Operators ops-math exports under a second name (experimental/math/<op>_v2, _v3, _with_agent,
// math/is_inf; issue 28, math a-l): the mathematics of an existing operator with the argument
// names and element types of the variant's op definition (op_host/<op>_def.cpp). Each has its own
// registry entry and name in the trace; the unary, binary and copy engines do the rest.
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_acos_v2.h"
#include "aclnnop/aclnn_add_v2.h"
#include "aclnnop/aclnn_asin_with_agent.h"
#include "aclnnop/aclnn_asinh_v2.h"
#include "aclnnop/aclnn_asinh_with_agent.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cast_v2.h"
#include "aclnnop/aclnn_cast_v3.h"
#include "aclnnop/aclnn_ceil_v2.h"
#include "aclnnop/aclnn_cosh_v2.h"
#include "aclnnop/aclnn_div_v2.h"
#include "aclnnop/aclnn_div_v3.h"
#include "aclnnop/aclnn_erf_inv.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_floor_div.h"
#include "aclnnop/aclnn_inv.h"
#include "aclnnop/aclnn_invert_v2.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_log1p_v2.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

// --- one tensor: f evaluated in fp64 and rounded to the compute type by the engine ---
template <double (*F)(double)>
void apply32(float* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(F(v[i]));
}
template <double (*F)(double)>
void apply64(double* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = F(v[i]);
}
template <double (*F)(double)>
UnaryDef floatDef(const OpInfo& info, int passes) {
  return UnaryDef{&info, apply32<F>, apply64<F>, nullptr, passes};
}

double acosOf(double x) { return std::acos(x); }
double asinOf(double x) { return std::asin(x); }
double asinhOf(double x) { return std::asinh(x); }
double coshOf(double x) { return std::cosh(x); }
double ceilOf(double x) { return std::ceil(x); }
double log1pOf(double x) { return std::log1p(x); }
double reciprocalOf(double x) { return 1 / x; }
double isInfOf(double x) { return std::isinf(x) ? 1 : 0; }
double angleOf(double x) { return std::isnan(x) ? x : x < 0 ? 3.14159265358979323846 : 0.0; }  // of a real x

void bitwiseNot(int64_t* v, int64_t n) {  // stored back wrapped to the type's width
  for (int64_t i = 0; i < n; ++i) v[i] = ~v[i];
}
void neverInfinite(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = 0;
}

const std::vector<aclDataType> kF32 = {ACL_FLOAT};
const std::vector<aclDataType> kF16F32 = {ACL_FLOAT, ACL_FLOAT16};
const std::vector<aclDataType> kNnFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kBoolOut = {ACL_BOOL};

// Types: each variant's op definition (ops-math experimental/math/<op>/op_host/<op>_def.cpp).
const OpInfo kAcosV2{"aclnnAcosV2", ExecUnit::kVector, kNnFloats, "out = acos(self)"};
const OpInfo kAsinhV2{"aclnnAsinhV2", ExecUnit::kVector, kF16F32, "out = asinh(x)"};
const OpInfo kAsinhWithAgent{"aclnnAsinhWithAgent", ExecUnit::kVector, kF16F32, "out = asinh(x)"};
const OpInfo kAsinWithAgent{"aclnnAsinWithAgent", ExecUnit::kVector, kF32, "y = asin(x)"};
const OpInfo kCoshV2{"aclnnCoshV2", ExecUnit::kVector, kNnFloats, "out = cosh(self)"};
const OpInfo kCeilV2{"aclnnCeilV2", ExecUnit::kVector, kF16F32, "z = ceil(x)"};
const OpInfo kLog1pV2{"aclnnLog1pV2", ExecUnit::kVector, kF16F32, "y = ln(1 + x1)"};
const OpInfo kInv{"aclnnInv", ExecUnit::kVector, kNnFloats, "out = 1 / self"};
const OpInfo kInvertV2{"aclnnInvertV2", ExecUnit::kVector, {ACL_INT16, ACL_UINT16}, "y = ~x"};
// ops-math math/is_inf/docs/aclnnIsInf.md
const OpInfo kIsInf{"aclnnIsInf",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64,
                     ACL_UINT8, ACL_BOOL},
                    "out = self is +inf or -inf"};
// ops-math math/angle_v2/docs/aclnnAngleV2.md: real types (COMPLEX64 is refused: no complex values in
// the simulator); integers and bool computed as fp32 into a floating out.
const OpInfo kAngleV2{
    "aclnnAngleV2",
    ExecUnit::kVector,
    {ACL_BOOL, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BF16, ACL_FLOAT16, ACL_FLOAT},
    "out = angle(x): 0 for x >= 0, pi below 0"};
const OpRegistrar kUnaryRegistrars[] = {
    OpRegistrar(kAngleV2),       OpRegistrar(kAcosV2),   OpRegistrar(kAsinhV2), OpRegistrar(kAsinhWithAgent),
    OpRegistrar(kAsinWithAgent), OpRegistrar(kCoshV2),   OpRegistrar(kCeilV2),  OpRegistrar(kLog1pV2),
    OpRegistrar(kInv),           OpRegistrar(kInvertV2), OpRegistrar(kIsInf)};

// Vector passes as their unary_math.cpp counterparts.
const UnaryDef kAcosV2Def = floatDef<acosOf>(kAcosV2, 8);
const UnaryDef kAsinhV2Def = floatDef<asinhOf>(kAsinhV2, 4);
const UnaryDef kAsinhWithAgentDef = floatDef<asinhOf>(kAsinhWithAgent, 4);
const UnaryDef kAsinWithAgentDef = floatDef<asinOf>(kAsinWithAgent, 8);
const UnaryDef kCoshV2Def = floatDef<coshOf>(kCoshV2, 4);
const UnaryDef kCeilV2Def = floatDef<ceilOf>(kCeilV2, 1);
const UnaryDef kLog1pV2Def = floatDef<log1pOf>(kLog1pV2, 2);
const UnaryDef kInvDef = floatDef<reciprocalOf>(kInv, 1);
const UnaryDef kInvertV2Def{&kInvertV2, nullptr, nullptr, bitwiseNot, 1};
const UnaryDef kAngleV2Def = floatDef<angleOf>(kAngleV2, 2);  // compare, select
const UnaryDef kIsInfDef{&kIsInf, apply32<isInfOf>, apply64<isInfOf>, neverInfinite, 2, &kBoolOut};

// --- two tensors on the binary engine (types: the variants' op definitions) ---
const OpInfo kAddV2{
    "aclnnAddV2", ExecUnit::kVector, {ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_FLOAT16}, "y = x1 + x2"};
const OpInfo kDivV2{
    "aclnnDivV2", ExecUnit::kVector, {ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_FLOAT16, ACL_BF16}, "y = x1 / x2"};
const OpInfo kDivV3{"aclnnDivV3",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_FLOAT16, ACL_BF16},
                    "out = self / other; mode 0 exact, 1 toward zero, 2 toward -inf"};
const OpInfo kFloorDiv{"aclnnFloorDiv",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_INT32, ACL_INT8, ACL_FLOAT16, ACL_UINT8, ACL_BF16},
                       "y = floor(x1 / x2)"};
const OpRegistrar kBinaryRegistrars[] = {OpRegistrar(kAddV2), OpRegistrar(kDivV2), OpRegistrar(kDivV3),
                                         OpRegistrar(kFloorDiv)};

int32_t binary(const char* name, const OpInfo& info, BinaryKind kind, const aclTensor* x1,
               const aclTensor* x2, const aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = std::string(name) + "GetWorkspaceSize";
  return buildBinary({api.c_str(), name, &info, kind, false}, x1, x2, nullptr, y, false, ws, ex);
}

// --- casts on the copy engine, through aclnnCast's checks ---
const OpInfo kCastV2{"aclnnCastV2",
                     ExecUnit::kVector,
                     {ACL_BF16, ACL_FLOAT, ACL_FLOAT16, ACL_INT16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8},
                     "z = x converted to z's type"};
const OpInfo kCastV3{
    "aclnnCastV3",
    ExecUnit::kVector,
    {ACL_BF16, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_INT16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8},
    "y = x converted to dst_type"};
const OpRegistrar kCastRegistrars[] = {OpRegistrar(kCastV2), OpRegistrar(kCastV3)};

// An operator built by another entry point under its own name: the executor keeps the base
// operator's checks and kernel and takes the variant's name (trace, statistics).
int32_t renamed(int32_t st, aclOpExecutor** ex, const char* name) {
  if (st == kSuccess && ex != nullptr && *ex != nullptr && (*ex)->op) (*ex)->op->name = name;
  return st;
}

// Checks the variant's own types before handing over to the base operator.
int32_t checkTypes(const char* api, const OpInfo& info,
                   std::initializer_list<std::pair<const char*, const aclTensor*>> ts) {
  for (const auto& [name, t] : ts) {
    if (t == nullptr) return checkNotNull(api, {{name, t}});
    const int32_t st = checkDtype(api, name, t->desc.dtype, info);
    if (st != kSuccess) return st;
  }
  return kSuccess;
}

const OpInfo kErfInv{"aclnnErfInv", ExecUnit::kVector, kF16F32, "y = erfinv(x)"};
const OpRegistrar kErfInvRegistrar(kErfInv);

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

#define VARIANT_UNARY(Name, def, YT)                                                              \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* x, YT* y, uint64_t* ws,   \
                                                       aclOpExecutor** ex) {                      \
    return buildUnary(def, "aclnn" #Name "GetWorkspaceSize", "aclnn" #Name, x, y, false, ws, ex); \
  }                                                                                               \
  NPUSIM_ACLNN_PHASE2(Name)

VARIANT_UNARY(AcosV2, kAcosV2Def, const aclTensor)
VARIANT_UNARY(AsinhV2, kAsinhV2Def, const aclTensor)
VARIANT_UNARY(AsinhWithAgent, kAsinhWithAgentDef, const aclTensor)
VARIANT_UNARY(AsinWithAgent, kAsinWithAgentDef, aclTensor)
VARIANT_UNARY(CoshV2, kCoshV2Def, const aclTensor)
VARIANT_UNARY(CeilV2, kCeilV2Def, const aclTensor)
VARIANT_UNARY(Log1pV2, kLog1pV2Def, const aclTensor)
VARIANT_UNARY(Inv, kInvDef, const aclTensor)
VARIANT_UNARY(InvertV2, kInvertV2Def, const aclTensor)
VARIANT_UNARY(IsInf, kIsInfDef, const aclTensor)
VARIANT_UNARY(AngleV2, kAngleV2Def, const aclTensor)

// erfinv as aclnnErfinv computes it (Winitzki's estimate refined by Newton steps on erf).
extern "C" aclnnStatus aclnnErfInvGetWorkspaceSize(const aclTensor* x, const aclTensor* y, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  const char* api = "aclnnErfInvGetWorkspaceSize";
  const int32_t st = checkTypes(api, kErfInv, {{"x", x}, {"y", y}});
  if (st != kSuccess) return st;
  return renamed(aclnnErfinvGetWorkspaceSize(x, const_cast<aclTensor*>(y), ws, ex), ex, "aclnnErfInv");
}
NPUSIM_ACLNN_PHASE2(ErfInv)

extern "C" aclnnStatus aclnnAddV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                  const aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  return binary("aclnnAddV2", kAddV2, BinaryKind::kAdd, x1, x2, y, ws, ex);
}
NPUSIM_ACLNN_PHASE2(AddV2)

extern "C" aclnnStatus aclnnDivV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                  const aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  return binary("aclnnDivV2", kDivV2, BinaryKind::kDiv, x1, x2, y, ws, ex);
}
NPUSIM_ACLNN_PHASE2(DivV2)

extern "C" aclnnStatus aclnnFloorDivGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                     const aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  return binary("aclnnFloorDiv", kFloorDiv, BinaryKind::kFloorDiv, x1, x2, y, ws, ex);
}
NPUSIM_ACLNN_PHASE2(FloorDiv)

// mode (experimental/math/div_v3 README): 0 RealDiv, 1 TruncDiv, 2 FloorDiv; another is 161002.
extern "C" aclnnStatus aclnnDivV3GetWorkspaceSize(const aclTensor* self, const aclTensor* other, int64_t mode,
                                                  aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  constexpr BinaryKind kModes[] = {BinaryKind::kDiv, BinaryKind::kTruncDiv, BinaryKind::kFloorDiv};
  if (mode < 0 || mode > 2) {
    npusim::rt::chargeOpPrepare("aclnnDivV3GetWorkspaceSize");
    return fail("aclnnDivV3GetWorkspaceSize", kErrParamInvalid,
                fmt::format("mode {} is not 0 (RealDiv), 1 (TruncDiv) or 2 (FloorDiv)", mode));
  }
  const int32_t st = binary("aclnnDivV3", kDivV3, kModes[mode], self, other, out, ws, ex);
  if (st == kSuccess) (*ex)->op->attrs = fmt::format("mode={}", mode);
  return st;
}
NPUSIM_ACLNN_PHASE2(DivV3)

extern "C" aclnnStatus aclnnCastV2GetWorkspaceSize(const aclTensor* x, const aclTensor* z, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  const char* api = "aclnnCastV2GetWorkspaceSize";
  const int32_t st = checkTypes(api, kCastV2, {{"x", x}, {"z", z}});
  if (st != kSuccess) return st;
  return renamed(aclnnCastGetWorkspaceSize(x, z->desc.dtype, const_cast<aclTensor*>(z), ws, ex), ex,
                 "aclnnCastV2");
}
NPUSIM_ACLNN_PHASE2(CastV2)

// dstType is a ge::DataType, whose numbering aclDataType shares (DT_FLOAT16 = ACL_FLOAT16 = 1).
extern "C" aclnnStatus aclnnCastV3GetWorkspaceSize(const aclTensor* x, int64_t dstType, const aclTensor* y,
                                                   uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnCastV3GetWorkspaceSize";
  const int32_t st = checkTypes(api, kCastV3, {{"x", x}, {"y", y}});
  if (st != kSuccess) return st;
  if (dstType != static_cast<int64_t>(y->desc.dtype)) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("dstType {} is not y's type {} ({})", dstType, static_cast<int>(y->desc.dtype),
                            dtypeName(y->desc.dtype)));
  }
  return renamed(aclnnCastGetWorkspaceSize(x, y->desc.dtype, const_cast<aclTensor*>(y), ws, ex), ex,
                 "aclnnCastV3");
}
NPUSIM_ACLNN_PHASE2(CastV3)
