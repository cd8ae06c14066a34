// Elementwise operators of one tensor and host scalars (issue 28): clamps (ops-math
// conversion/clip_by_value_v2), NaN replacement (math/nan_to_num) and the activations with
// parameters (ops-nn activation/{leaky_relu, softplus_v2, threshold, elu, celu_v2, hard_shrink,
// softshrink, swish}). Each is its function of (x, scalars) and its entry points; the unary
// engine (unary_op.h) computes it in fp64, rounds as the device's fp32 (fp64 operands stay fp64,
// integers keep their value) and owns the checks, views, in-place forms and cost (one read, one
// write, the passes below: 1 for compare/select chains, 4 for those with an exp or log).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>

#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_nan_to_num.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_swish.h"
#include "aclnnop/aclnn_threshold.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kReal = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                        ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64};
const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

// p[0], p[1], ...: the operator's scalars in the order of its signature.
double clamp(double x, const UnaryParams& p) { return std::isnan(x) ? x : std::min(std::max(x, p[0]), p[1]); }
double nanToNum(double x, const UnaryParams& p) {
  return std::isnan(x) ? p[0] : x == INFINITY ? p[1] : x == -INFINITY ? p[2] : x;
}
double leakyRelu(double x, const UnaryParams& p) { return x > 0 ? x : p[0] * x; }
double softplus(double x, const UnaryParams& p) {  // beta, threshold: linear above the threshold
  return p[0] * x > p[1] ? x : std::log1p(std::exp(p[0] * x)) / p[0];
}
double threshold(double x, const UnaryParams& p) { return x > p[0] ? x : p[1]; }
double elu(double x, const UnaryParams& p) {  // alpha, scale, inputScale
  return x > 0 ? p[1] * x : p[1] * p[0] * std::expm1(x * p[2]);
}
double celu(double x, const UnaryParams& p) {
  return std::max(x, 0.0) + std::min(0.0, p[0] * std::expm1(x / p[0]));
}
double hardshrink(double x, const UnaryParams& p) { return x > p[0] || x < -p[0] ? x : 0; }
double softshrink(double x, const UnaryParams& p) { return x > p[0] ? x - p[0] : x < -p[0] ? x + p[0] : 0; }
double swish(double x, const UnaryParams& p) { return x / (1 + std::exp(-p[0] * x)); }

const OpInfo kClamp{"aclnnClamp", ExecUnit::kVector, kReal,
                    "out = min(max(self, clipValueMin), clipValueMax)"};
const OpInfo kClampMin{"aclnnClampMin", ExecUnit::kVector, kReal, "out = max(self, clipValueMin)"};
const OpInfo kClampMax{"aclnnClampMax", ExecUnit::kVector, kReal, "out = min(self, clipValueMax)"};
const OpInfo kHardtanh{"aclnnHardtanh", ExecUnit::kVector, kReal,
                       "out = min(max(self, clipValueMin), clipValueMax)"};
const OpInfo kNanToNum{"aclnnNanToNum", ExecUnit::kVector, kReal,
                       "nan -> nan, +inf -> posinf, -inf -> neginf"};
const OpInfo kLeakyRelu{"aclnnLeakyRelu", ExecUnit::kVector, kFloats,
                        "out = self > 0 ? self : negativeSlope * self"};
const OpInfo kSoftplus{"aclnnSoftplus", ExecUnit::kVector, kFloats,
                       "out = beta * self > threshold ? self : ln(1 + exp(beta * self)) / beta"};
const OpInfo kThreshold{"aclnnThreshold", ExecUnit::kVector, kReal, "out = self > threshold ? self : value"};
const OpInfo kElu{"aclnnElu", ExecUnit::kVector, kFloats,
                  "out = self > 0 ? scale * self : scale * alpha * (exp(self * inputScale) - 1)"};
const OpInfo kCelu{"aclnnCelu", ExecUnit::kVector, kFloats,
                   "out = max(0, self) + min(0, alpha * (exp(self / alpha) - 1))"};
const OpInfo kHardshrink{"aclnnHardshrink", ExecUnit::kVector, kFloats, "out = |self| > lambd ? self : 0"};
const OpInfo kSoftshrink{"aclnnSoftshrink", ExecUnit::kVector, kFloats,
                         "out = self - lambd, self + lambd or 0 by where self lies against ±lambd"};
const OpInfo kSwish{"aclnnSwish", ExecUnit::kVector, kFloats,
                    "out = self * sigmoid(beta * self), beta 1 if absent"};

const OpRegistrar kRegistrars[] = {OpRegistrar(kClamp),    OpRegistrar(kClampMin),   OpRegistrar(kClampMax),
                                   OpRegistrar(kHardtanh), OpRegistrar(kNanToNum),   OpRegistrar(kLeakyRelu),
                                   OpRegistrar(kSoftplus), OpRegistrar(kThreshold),  OpRegistrar(kElu),
                                   OpRegistrar(kCelu),     OpRegistrar(kHardshrink), OpRegistrar(kSoftshrink),
                                   OpRegistrar(kSwish)};

UnaryDef paramDef(const OpInfo& info, double (*f)(double, const UnaryParams&), int passes) {
  UnaryDef d{&info, nullptr, nullptr, nullptr, passes};
  d.withParams = f;
  return d;
}
const UnaryDef kClampDef = paramDef(kClamp, clamp, 1), kClampMinDef = paramDef(kClampMin, clamp, 1);
const UnaryDef kClampMaxDef = paramDef(kClampMax, clamp, 1), kHardtanhDef = paramDef(kHardtanh, clamp, 1);
const UnaryDef kNanToNumDef = paramDef(kNanToNum, nanToNum, 1),
               kLeakyReluDef = paramDef(kLeakyRelu, leakyRelu, 1);
const UnaryDef kSoftplusDef = paramDef(kSoftplus, softplus, 4),
               kThresholdDef = paramDef(kThreshold, threshold, 1);
const UnaryDef kEluDef = paramDef(kElu, elu, 4), kCeluDef = paramDef(kCelu, celu, 4);
const UnaryDef kHardshrinkDef = paramDef(kHardshrink, hardshrink, 1),
               kSoftshrinkDef = paramDef(kSoftshrink, softshrink, 1);
const UnaryDef kSwishDef = paramDef(kSwish, swish, 4);

constexpr double kInf = std::numeric_limits<double>::infinity();

// Phase 1 with scalars: each named scalar must be present (161001 names the first missing one);
// their values, in order, become the parameters after `fixed` ones.
int32_t build(const UnaryDef& d, bool inplace, const aclTensor* self, const aclTensor* out,
              std::initializer_list<std::pair<const char*, const aclScalar*>> scalars, uint64_t* ws,
              aclOpExecutor** ex, UnaryParams p = {}, size_t first = 0) {
  const std::string op = inplace ? "aclnnInplace" + d.info->name.substr(5) : d.info->name;
  const std::string api = op + "GetWorkspaceSize";
  std::string attrs;
  for (auto [name, s] : scalars) {
    if (s == nullptr) {
      rt::chargeOpPrepare(api.c_str());
      return checkNotNull(api.c_str(), {{name, s}});
    }
    p[first++] = s->value.toDouble();
    attrs += fmt::format("{}{}={}", attrs.empty() ? "" : ", ", name, s->value.str());
  }
  return buildUnary(d, api.c_str(), op.c_str(), self, out, inplace, ws, ex, p, attrs);
}

// Clamp's bounds: either may be absent (no bound on that side), not both.
int32_t buildClamp(const UnaryDef& d, bool inplace, const aclTensor* self, const aclScalar* lo,
                   const aclScalar* hi, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const std::string op = inplace ? "aclnnInplace" + d.info->name.substr(5) : d.info->name;
  const std::string api = op + "GetWorkspaceSize";
  if (lo == nullptr && hi == nullptr) {
    rt::chargeOpPrepare(api.c_str());
    return checkNotNull(api.c_str(), {{"clipValueMin and clipValueMax", nullptr}});
  }
  const UnaryParams p{lo ? lo->value.toDouble() : -kInf, hi ? hi->value.toDouble() : kInf, 0, 0};
  const std::string attrs =
      fmt::format("min={}, max={}", lo ? lo->value.str() : "none", hi ? hi->value.str() : "none");
  return buildUnary(d, api.c_str(), op.c_str(), self, out, inplace, ws, ex, p, attrs);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

extern "C" aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                                  const aclScalar* clipValueMax, aclTensor* out, WS) {
  return buildClamp(kClampDef, false, self, clipValueMin, clipValueMax, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Clamp)
extern "C" aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                                     aclTensor* out, WS) {
  return build(kClampMinDef, false, self, out, {{"clipValueMin", clipValueMin}}, ws, ex, {0, kInf, 0, 0});
}
NPUSIM_ACLNN_PHASE2(ClampMin)
extern "C" aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMax,
                                                     aclTensor* out, WS) {
  return build(kClampMaxDef, false, self, out, {{"clipValueMax", clipValueMax}}, ws, ex, {-kInf, 0, 0, 0}, 1);
}
NPUSIM_ACLNN_PHASE2(ClampMax)
extern "C" aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor* selfRef,
                                                            const aclScalar* clipValueMax, WS) {
  return build(kClampMaxDef, true, selfRef, selfRef, {{"clipValueMax", clipValueMax}}, ws, ex,
               {-kInf, 0, 0, 0}, 1);
}
NPUSIM_ACLNN_PHASE2(InplaceClampMax)

extern "C" aclnnStatus aclnnHardtanhGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                                     const aclScalar* clipValueMax, aclTensor* out, WS) {
  return build(kHardtanhDef, false, self, out,
               {{"clipValueMin", clipValueMin}, {"clipValueMax", clipValueMax}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Hardtanh)
extern "C" aclnnStatus aclnnInplaceHardtanhGetWorkspaceSize(aclTensor* selfRef, const aclScalar* clipValueMin,
                                                            const aclScalar* clipValueMax, WS) {
  return build(kHardtanhDef, true, selfRef, selfRef,
               {{"clipValueMin", clipValueMin}, {"clipValueMax", clipValueMax}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceHardtanh)

extern "C" aclnnStatus aclnnNanToNumGetWorkspaceSize(const aclTensor* self, float nan, float posinf,
                                                     float neginf, aclTensor* out, WS) {
  const std::string attrs = fmt::format("nan={}, posinf={}, neginf={}", nan, posinf, neginf);
  return buildUnary(kNanToNumDef, "aclnnNanToNumGetWorkspaceSize", "aclnnNanToNum", self, out, false, ws, ex,
                    {nan, posinf, neginf, 0}, attrs);
}
NPUSIM_ACLNN_PHASE2(NanToNum)
extern "C" aclnnStatus aclnnInplaceNanToNumGetWorkspaceSize(aclTensor* selfRef, float nan, float posinf,
                                                            float neginf, WS) {
  const std::string attrs = fmt::format("nan={}, posinf={}, neginf={}", nan, posinf, neginf);
  return buildUnary(kNanToNumDef, "aclnnInplaceNanToNumGetWorkspaceSize", "aclnnInplaceNanToNum", selfRef,
                    selfRef, true, ws, ex, {nan, posinf, neginf, 0}, attrs);
}
NPUSIM_ACLNN_PHASE2(InplaceNanToNum)

extern "C" aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope,
                                                      aclTensor* out, WS) {
  return build(kLeakyReluDef, false, self, out, {{"negativeSlope", negativeSlope}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LeakyRelu)
extern "C" aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef,
                                                             const aclScalar* negativeSlope, WS) {
  return build(kLeakyReluDef, true, selfRef, selfRef, {{"negativeSlope", negativeSlope}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceLeakyRelu)

extern "C" aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
                                                     const aclScalar* threshold, aclTensor* out, WS) {
  return build(kSoftplusDef, false, self, out, {{"beta", beta}, {"threshold", threshold}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Softplus)

extern "C" aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold,
                                                      const aclScalar* value, aclTensor* out, WS) {
  return build(kThresholdDef, false, self, out, {{"threshold", threshold}, {"value", value}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Threshold)
extern "C" aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
                                                             const aclScalar* value, WS) {
  return build(kThresholdDef, true, selfRef, selfRef, {{"threshold", threshold}, {"value", value}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceThreshold)

extern "C" aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                                const aclScalar* scale, const aclScalar* inputScale,
                                                aclTensor* out, WS) {
  return build(kEluDef, false, self, out, {{"alpha", alpha}, {"scale", scale}, {"inputScale", inputScale}},
               ws, ex);
}
NPUSIM_ACLNN_PHASE2(Elu)
extern "C" aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha,
                                                       const aclScalar* scale, const aclScalar* inputScale,
                                                       WS) {
  return build(kEluDef, true, selfRef, selfRef,
               {{"alpha", alpha}, {"scale", scale}, {"inputScale", inputScale}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceElu)

extern "C" aclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                                 aclTensor* out, WS) {
  return build(kCeluDef, false, self, out, {{"alpha", alpha}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Celu)
extern "C" aclnnStatus aclnnInplaceCeluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha, WS) {
  return build(kCeluDef, true, selfRef, selfRef, {{"alpha", alpha}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceCelu)

extern "C" aclnnStatus aclnnHardshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd,
                                                       aclTensor* out, WS) {
  return build(kHardshrinkDef, false, self, out, {{"lambd", lambd}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Hardshrink)
extern "C" aclnnStatus aclnnSoftshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd,
                                                       aclTensor* out, WS) {
  return build(kSoftshrinkDef, false, self, out, {{"lambd", lambd}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Softshrink)

extern "C" aclnnStatus aclnnSwishGetWorkspaceSize(const aclTensor* self, const aclScalar* betaOptional,
                                                  aclTensor* out, WS) {
  if (betaOptional == nullptr) return build(kSwishDef, false, self, out, {}, ws, ex, {1, 0, 0, 0});  // silu
  return build(kSwishDef, false, self, out, {{"betaOptional", betaOptional}}, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Swish)
