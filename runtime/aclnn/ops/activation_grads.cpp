// Gradients of the elementwise activations (ops-nn activation/*_grad): each is its derivative
// f'(x) from the operator's doc and its entry point; activation_grad_op.h owns the rest.
// Vector passes: 2 for piecewise-linear derivatives (compare, select, multiply), 4 for those
// with one exp (sigmoid-based), 6 for those with erf/tanh and several products.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <string>

#include "aclnnop/aclnn_elu_backward.h"
#include "aclnnop/aclnn_fast_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_softsign_backward.h"
#include "aclnnop/aclnn_swish_backward.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/activation_grad_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::vector<aclDataType> kNnFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
const double kSqrt2Pi = std::sqrt(2 / std::acos(-1.0));  // sqrt(2 / pi)

// --- derivatives; p: the operator's scalars in the order of its signature ---
double dSigmoidOfOutput(double y, const GradParams&) { return y * (1 - y); }
double dTanhOfOutput(double y, const GradParams&) { return 1 - y * y; }
double dSilu(double x, const GradParams&) {
  const double s = sigmoid(x);
  return s * (1 + x * (1 - s));
}
double dGeluErf(double x, const GradParams&) {  // ops-nn gelu_grad doc
  return 0.5 + 0.5 * std::erf(x / std::sqrt(2.0)) + x / std::sqrt(2 * std::acos(-1.0)) * std::exp(-x * x / 2);
}
double dGeluTanh(double x, const GradParams&) {  // of 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  const double t = std::tanh(kSqrt2Pi * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * kSqrt2Pi * (1 + 3 * 0.044715 * x * x);
}
double dSoftsign(double x, const GradParams&) {  // ops-nn softsign_grad doc: 1 / (1 + |x|)^2
  const double d = 1 + std::fabs(x);
  return 1 / (d * d);
}
double dFastGelu(double x, const GradParams&) {  // of x sigmoid(1.702 x), ops-nn fast_gelu_grad doc
  const double s = sigmoid(1.702 * x);
  return s * (1 + 1.702 * x * (1 - s));
}
double dHardswish(double x, const GradParams&) { return x < -3 ? 0 : x <= 3 ? x / 3 + 0.5 : 1; }
double dHardsigmoid(double x, const GradParams&) { return x > -3 && x < 3 ? 1.0 / 6 : 0; }
double dMish(double x, const GradParams&) {
  const double t = std::tanh(std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))));
  return t + x * (1 - t * t) * sigmoid(x);
}
double dLogSigmoid(double x, const GradParams&) { return sigmoid(-x); }
double dSeluOfResult(double r, const GradParams&) {
  const double alpha = 1.6732632423543772848, scale = 1.0507009873554804934;
  return r > 0 ? scale : r + scale * alpha;
}
double dSoftplus(double x, const GradParams& p) {  // p: beta, threshold
  return p[0] * x > p[1] ? 1 : sigmoid(p[0] * x);
}
double dHardtanh(double x, const GradParams& p) { return x > p[0] && x < p[1] ? 1 : 0; }  // p: min, max
double dLeakyRelu(double x, const GradParams& p) { return x > 0 ? 1 : p[0]; }             // p: slope
double dThreshold(double x, const GradParams& p) { return x > p[0] ? 1 : 0; }             // p: threshold
double dShrink(double x, const GradParams& p) { return x > p[0] || x < -p[0] ? 1 : 0; }   // p: lambda
double dSwish(double x, const GradParams& p) {                                            // p: beta
  const double s = sigmoid(p[0] * x);
  return s + p[0] * x * s * (1 - s);
}
double dElu(double v, const GradParams& p) {  // p: alpha, scale, inputScale, isResult
  const double alpha = p[0], scale = p[1], inputScale = p[2];
  if (p[3] != 0) return v > 0 ? scale : inputScale * (v + alpha * scale);
  return v > 0 ? scale : inputScale * alpha * scale * std::exp(v * inputScale);
}

const OpInfo kSigmoidBackward{"aclnnSigmoidBackward", ExecUnit::kVector, kFloats,
                              "gradInput = gradOutput * y * (1 - y)"};
const OpInfo kTanhBackward{"aclnnTanhBackward", ExecUnit::kVector, kFloats,
                           "gradInput = gradOutput * (1 - y^2)"};
const OpInfo kSiluBackward{"aclnnSiluBackward", ExecUnit::kVector, kNnFloats,
                           "gradInput = gradOutput * s(x) * (1 + x * (1 - s(x))), s the sigmoid"};
const OpInfo kGeluBackward{"aclnnGeluBackward", ExecUnit::kVector, kNnFloats,
                           "gradInput = gradOutput * (1/2 + erf(x/sqrt2)/2 + x/sqrt(2pi) * exp(-x^2/2))"};
const OpInfo kGeluBackwardV2{"aclnnGeluBackwardV2", ExecUnit::kVector, kNnFloats,
                             "gradInput = gradOutput * gelu'(x), approximate 'none' (erf) or 'tanh'"};
const OpInfo kHardswishBackward{"aclnnHardswishBackward", ExecUnit::kVector, kNnFloats,
                                "out = gradOutput * (x < -3 ? 0 : x <= 3 ? x/3 + 1/2 : 1)"};
const OpInfo kHardsigmoidBackward{"aclnnHardsigmoidBackward", ExecUnit::kVector, kNnFloats,
                                  "out = gradOutput / 6 where -3 < x < 3, else 0"};
const OpInfo kMishBackward{
    "aclnnMishBackward", ExecUnit::kVector, kNnFloats,
    "gradInput = gradOutput * (t + x * (1 - t^2) * sigmoid(x)), t = tanh(softplus(x))"};
const OpInfo kLogSigmoidBackward{"aclnnLogSigmoidBackward", ExecUnit::kVector, kNnFloats,
                                 "gradInput = gradOutput * sigmoid(-x)"};
const OpInfo kSeluBackward{
    "aclnnSeluBackward", ExecUnit::kVector, kNnFloats,
    "gradInput = gradOutput * (r > 0 ? scale : r + scale * alpha), r the forward result"};
const OpInfo kSoftplusBackward{"aclnnSoftplusBackward", ExecUnit::kVector, kNnFloats,
                               "gradInput = gradOutput * (beta x > threshold ? 1 : sigmoid(beta x))"};
const OpInfo kHardtanhBackward{"aclnnHardtanhBackward", ExecUnit::kVector, kNnFloats,
                               "out = gradOutput where min < x < max, else 0"};
const OpInfo kLeakyReluBackward{"aclnnLeakyReluBackward", ExecUnit::kVector, kNnFloats,
                                "out = gradOutput * (x > 0 ? 1 : negativeSlope)"};
const OpInfo kThresholdBackward{"aclnnThresholdBackward", ExecUnit::kVector, kNnFloats,
                                "out = gradOutput where x > threshold, else 0"};
const OpInfo kSoftshrinkBackward{"aclnnSoftshrinkBackward", ExecUnit::kVector, kNnFloats,
                                 "gradInput = gradOutput where |x| > lambda, else 0"};
const OpInfo kHardshrinkBackward{"aclnnHardshrinkBackward", ExecUnit::kVector, kNnFloats,
                                 "gradInput = gradOutput where |x| > lambd, else 0"};
const OpInfo kSwishBackward{"aclnnSwishBackward", ExecUnit::kVector, kNnFloats,
                            "gradInput = gradOutput * (s + beta x s (1 - s)), s = sigmoid(beta x)"};
const OpInfo kSoftsignBackward{"aclnnSoftsignBackward", ExecUnit::kVector, kNnFloats,
                               "out = gradients / (1 + |features|)^2"};
const OpInfo kFastGeluBackward{"aclnnFastGeluBackward", ExecUnit::kVector, kNnFloats,
                               "gradInput = gradOutput * s * (1 + 1.702 x (1 - s)), s = sigmoid(1.702 x)"};
const OpInfo kEluBackward{"aclnnEluBackward", ExecUnit::kVector, kNnFloats,
                          "gradInput = gradOutput * (v > 0 ? scale : d), d from alpha, scale, inputScale"};

const OpRegistrar kRegistrars[] = {
    OpRegistrar(kSigmoidBackward),     OpRegistrar(kTanhBackward),      OpRegistrar(kSiluBackward),
    OpRegistrar(kGeluBackward),        OpRegistrar(kGeluBackwardV2),    OpRegistrar(kHardswishBackward),
    OpRegistrar(kHardsigmoidBackward), OpRegistrar(kMishBackward),      OpRegistrar(kLogSigmoidBackward),
    OpRegistrar(kSeluBackward),        OpRegistrar(kSoftplusBackward),  OpRegistrar(kHardtanhBackward),
    OpRegistrar(kLeakyReluBackward),   OpRegistrar(kThresholdBackward), OpRegistrar(kSoftshrinkBackward),
    OpRegistrar(kHardshrinkBackward),  OpRegistrar(kSwishBackward),     OpRegistrar(kEluBackward),
    OpRegistrar(kSoftsignBackward),    OpRegistrar(kFastGeluBackward)};

const GradDef kSigmoidDef{&kSigmoidBackward, dSigmoidOfOutput, 2};
const GradDef kTanhDef{&kTanhBackward, dTanhOfOutput, 2};
const GradDef kSiluDef{&kSiluBackward, dSilu, 4};
const GradDef kGeluDef{&kGeluBackward, dGeluErf, 6};
const GradDef kGeluV2ErfDef{&kGeluBackwardV2, dGeluErf, 6};
const GradDef kGeluV2TanhDef{&kGeluBackwardV2, dGeluTanh, 6};
const GradDef kHardswishDef{&kHardswishBackward, dHardswish, 2};
const GradDef kHardsigmoidDef{&kHardsigmoidBackward, dHardsigmoid, 2};
const GradDef kMishDef{&kMishBackward, dMish, 6};
const GradDef kLogSigmoidDef{&kLogSigmoidBackward, dLogSigmoid, 4};
const GradDef kSeluDef{&kSeluBackward, dSeluOfResult, 2};
const GradDef kSoftplusDef{&kSoftplusBackward, dSoftplus, 4};
const GradDef kHardtanhDef{&kHardtanhBackward, dHardtanh, 2};
const GradDef kLeakyReluDef{&kLeakyReluBackward, dLeakyRelu, 2};
const GradDef kThresholdDef{&kThresholdBackward, dThreshold, 2};
const GradDef kSoftshrinkDef{&kSoftshrinkBackward, dShrink, 2};
const GradDef kHardshrinkDef{&kHardshrinkBackward, dShrink, 2};
const GradDef kSwishDef{&kSwishBackward, dSwish, 4};
const GradDef kEluDef{&kEluBackward, dElu, 4};
const GradDef kSoftsignDef{&kSoftsignBackward, dSoftsign, 4};
const GradDef kFastGeluDef{&kFastGeluBackward, dFastGelu, 4};

// GradArgs for an operator named `name` (its phase-1 API name is derived).
struct Api {
  std::string phase1;
  explicit Api(const char* name) : phase1(std::string(name) + "GetWorkspaceSize") {}
};

int32_t simple(const GradDef& d, const char* xName, const char* outName, const aclTensor* g,
               const aclTensor* x, const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const Api api(d.info->name.c_str());
  return buildActivationGrad(d, {api.phase1.c_str(), "gradOutput", xName, outName}, g, x, out, ws, ex);
}

// Operators with scalars: null scalars are 161001; their values become the parameters.
int32_t withScalars(const GradDef& d, const char* xName, const char* outName, const aclTensor* g,
                    const aclTensor* x,
                    std::initializer_list<std::pair<const char*, const aclScalar*>> scalars,
                    const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const Api api(d.info->name.c_str());
  GradArgs a{api.phase1.c_str(), "gradOutput", xName, outName};
  std::string attrs;
  size_t i = 0;
  for (auto [name, s] : scalars) {
    if (s == nullptr) {
      rt::chargeOpPrepare(a.api);
      return checkNotNull(a.api, {{name, s}});
    }
    a.params[i++] = s->value.toDouble();
    attrs += fmt::format("{}{}={}", attrs.empty() ? "" : ", ", name, s->value.str());
  }
  a.attrs = attrs.c_str();
  return buildActivationGrad(d, a, g, x, out, ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

#define GRAD_SIMPLE(Name, Def, XName, OutName, OutT)                                                    \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* x, \
                                                       OutT* out, uint64_t* ws, aclOpExecutor** ex) {   \
    return simple(Def, XName, OutName, gradOutput, x, out, ws, ex);                                     \
  }                                                                                                     \
  NPUSIM_ACLNN_PHASE2(Name)

GRAD_SIMPLE(SigmoidBackward, kSigmoidDef, "output", "gradInput", aclTensor)
GRAD_SIMPLE(TanhBackward, kTanhDef, "output", "gradInput", aclTensor)
GRAD_SIMPLE(SiluBackward, kSiluDef, "self", "gradInput", aclTensor)
GRAD_SIMPLE(GeluBackward, kGeluDef, "self", "gradInput", const aclTensor)
GRAD_SIMPLE(HardswishBackward, kHardswishDef, "self", "out", aclTensor)
GRAD_SIMPLE(HardsigmoidBackward, kHardsigmoidDef, "self", "out", aclTensor)
GRAD_SIMPLE(MishBackward, kMishDef, "self", "gradInput", aclTensor)
GRAD_SIMPLE(SeluBackward, kSeluDef, "result", "gradInput", aclTensor)
GRAD_SIMPLE(FastGeluBackward, kFastGeluDef, "self", "gradInput", aclTensor)

extern "C" aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                           char* approximate, aclTensor* gradInput,
                                                           uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnGeluBackwardV2GetWorkspaceSize";
  if (approximate == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"approximate", approximate}});
  }
  const bool tanhForm = std::strcmp(approximate, "tanh") == 0;
  if (!tanhForm && std::strcmp(approximate, "none") != 0) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("approximate must be \"none\" or \"tanh\", not \"{}\"", approximate));
  }
  const std::string attrs = fmt::format("approximate={}", approximate);
  return buildActivationGrad(tanhForm ? kGeluV2TanhDef : kGeluV2ErfDef,
                             {api, "gradOutput", "self", "gradInput", {}, attrs.c_str()}, gradOutput, self,
                             gradInput, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GeluBackwardV2)

extern "C" aclnnStatus aclnnSoftsignBackwardGetWorkspaceSize(const aclTensor* gradients,
                                                             const aclTensor* features, const aclTensor* out,
                                                             uint64_t* ws, aclOpExecutor** ex) {
  return buildActivationGrad(kSoftsignDef,
                             {"aclnnSoftsignBackwardGetWorkspaceSize", "gradients", "features", "out"},
                             gradients, features, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SoftsignBackward)

extern "C" aclnnStatus aclnnLogSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                               const aclTensor* self, const aclTensor* buffer,
                                                               aclTensor* gradInput, uint64_t* ws,
                                                               aclOpExecutor** ex) {
  // buffer (the forward's intermediate) is not needed: the derivative is recomputed from self.
  if (buffer == nullptr) {
    npusim::rt::chargeOpPrepare("aclnnLogSigmoidBackwardGetWorkspaceSize");
    return checkNotNull("aclnnLogSigmoidBackwardGetWorkspaceSize", {{"buffer", buffer}});
  }
  return simple(kLogSigmoidDef, "self", "gradInput", gradOutput, self, gradInput, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LogSigmoidBackward)

extern "C" aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                             const aclTensor* self, const aclScalar* beta,
                                                             const aclScalar* threshold, aclTensor* gradInput,
                                                             uint64_t* ws, aclOpExecutor** ex) {
  return withScalars(kSoftplusDef, "self", "gradInput", gradOutput, self,
                     {{"beta", beta}, {"threshold", threshold}}, gradInput, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SoftplusBackward)

extern "C" aclnnStatus aclnnHardtanhBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                             const aclTensor* self, const aclScalar* min,
                                                             const aclScalar* max, aclTensor* out,
                                                             uint64_t* ws, aclOpExecutor** ex) {
  return withScalars(kHardtanhDef, "self", "out", gradOutput, self, {{"min", min}, {"max", max}}, out, ws,
                     ex);
}
NPUSIM_ACLNN_PHASE2(HardtanhBackward)

extern "C" aclnnStatus aclnnLeakyReluBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                              const aclTensor* self,
                                                              const aclScalar* negativeSlope,
                                                              bool selfIsResult, aclTensor* out, uint64_t* ws,
                                                              aclOpExecutor** ex) {
  // With a non-negative slope the result has the input's sign, so either serves as x.
  (void)selfIsResult;
  return withScalars(kLeakyReluDef, "self", "out", gradOutput, self, {{"negativeSlope", negativeSlope}}, out,
                     ws, ex);
}
NPUSIM_ACLNN_PHASE2(LeakyReluBackward)

extern "C" aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                              const aclTensor* self,
                                                              const aclScalar* threshold, aclTensor* out,
                                                              uint64_t* ws, aclOpExecutor** ex) {
  return withScalars(kThresholdDef, "self", "out", gradOutput, self, {{"threshold", threshold}}, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ThresholdBackward)

extern "C" aclnnStatus aclnnSoftshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                               const aclTensor* self, const aclScalar* lambda,
                                                               aclTensor* gradInput, uint64_t* ws,
                                                               aclOpExecutor** ex) {
  return withScalars(kSoftshrinkDef, "self", "gradInput", gradOutput, self, {{"lambda", lambda}}, gradInput,
                     ws, ex);
}
NPUSIM_ACLNN_PHASE2(SoftshrinkBackward)

extern "C" aclnnStatus aclnnHardshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                               const aclTensor* self, const aclScalar* lambd,
                                                               aclTensor* gradInput, uint64_t* ws,
                                                               aclOpExecutor** ex) {
  return withScalars(kHardshrinkDef, "self", "gradInput", gradOutput, self, {{"lambd", lambd}}, gradInput, ws,
                     ex);
}
NPUSIM_ACLNN_PHASE2(HardshrinkBackward)

extern "C" aclnnStatus aclnnSwishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                          const aclScalar* betaOptional, aclTensor* gradInput,
                                                          uint64_t* ws, aclOpExecutor** ex) {
  if (betaOptional != nullptr) {
    return withScalars(kSwishDef, "self", "gradInput", gradOutput, self, {{"betaOptional", betaOptional}},
                       gradInput, ws, ex);
  }
  const Api api("aclnnSwishBackward");
  return buildActivationGrad(kSwishDef,
                             {api.phase1.c_str(), "gradOutput", "self", "gradInput", {1.0, 0, 0, 0}},
                             gradOutput, self, gradInput, ws, ex);  // beta defaults to 1 (silu)
}
NPUSIM_ACLNN_PHASE2(SwishBackward)

extern "C" aclnnStatus aclnnEluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclScalar* alpha,
                                                        const aclScalar* scale, const aclScalar* inputScale,
                                                        bool isResult, const aclTensor* selfOrResult,
                                                        aclTensor* gradInput, uint64_t* ws,
                                                        aclOpExecutor** ex) {
  const char* api = "aclnnEluBackwardGetWorkspaceSize";
  if (alpha == nullptr || scale == nullptr || inputScale == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"alpha", alpha}, {"scale", scale}, {"inputScale", inputScale}});
  }
  const std::string attrs = fmt::format("alpha={}, scale={}, inputScale={}, isResult={}", alpha->value.str(),
                                        scale->value.str(), inputScale->value.str(), isResult);
  GradArgs a{
      api,
      "gradOutput",
      "selfOrResult",
      "gradInput",
      {alpha->value.toDouble(), scale->value.toDouble(), inputScale->value.toDouble(), isResult ? 1.0 : 0.0},
      attrs.c_str()};
  return buildActivationGrad(kEluDef, a, gradOutput, selfOrResult, gradInput, ws, ex);
}
NPUSIM_ACLNN_PHASE2(EluBackward)
