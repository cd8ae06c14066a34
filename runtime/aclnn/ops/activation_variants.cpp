// Activations of ops-nn's activation/ and experimental/activation/ folders that are a function
// of one tensor and scalars, or of two tensors element by element (issue 28): the experimental
// variants under their own exported names (CeluV2, CeluV3, EluV2, LeakyreluV2, HardsigmoidV2,
// HardSwishV2, LogsigmoidV2, SoftPlusV2), their gradients (EluGrad, HardShrinkGrad,
// HardSigmoidGradV2, LeakyReluGradV2, TanhGrad, ReluGradV3, ReluGradV4), SiluMul, Prelu and
// PreluBackward, RReluWithNoise (evaluation mode), FusedBiasLeakyRelu and ReluV3 (relu with a
// bit mask of x > 0, eight elements of the last dimension per uint8, the first in the lowest bit).
// Each is an entry on the unary (unary_op.h), activation-gradient (activation_grad_op.h) or
// binary (binary_op.h) engine, which own checks, broadcasting, views and the cost model; the
// formulas and types are those of each folder's README / docs.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_celu_v2.h"
#include "aclnnop/aclnn_celu_v3.h"
#include "aclnnop/aclnn_elu_grad.h"
#include "aclnnop/aclnn_elu_v2.h"
#include "aclnnop/aclnn_fused_bias_leaky_relu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hard_shrink_grad.h"
#include "aclnnop/aclnn_hard_sigmoid_grad_v2.h"
#include "aclnnop/aclnn_hard_swish_v2.h"
#include "aclnnop/aclnn_hardsigmoid_v2.h"
#include "aclnnop/aclnn_hardswish_backward_v2.h"
#include "aclnnop/aclnn_leaky_relu_grad_v2.h"
#include "aclnnop/aclnn_leakyrelu_v2.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_logsigmoid_v2.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_relu_grad_v3.h"
#include "aclnnop/aclnn_relu_grad_v4.h"
#include "aclnnop/aclnn_relu_v3.h"
#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "aclnnop/aclnn_shrink.h"
#include "aclnnop/aclnn_silu_mul.h"
#include "aclnnop/aclnn_soft_plus_v2.h"
#include "aclnnop/aclnn_tanh_grad.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/activation_grad_op.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/dense_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/unary_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kF32F16 = {ACL_FLOAT, ACL_FLOAT16};
const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// --- one tensor and scalars (p: the scalars in signature order), computed in fp64 ---
double celu(double x, const UnaryParams& p) {
  return std::max(x, 0.0) + std::min(0.0, p[0] * std::expm1(x / p[0]));
}
double elu(double x, const UnaryParams& p) {  // alpha, scale, inputScale
  return x > 0 ? p[1] * x : p[1] * p[0] * std::expm1(x * p[2]);
}
double leakyRelu(double x, const UnaryParams& p) { return x >= 0 ? x : p[0] * x; }
double hardSigmoid(double x, const UnaryParams&) { return std::min(std::max(x / 6 + 0.5, 0.0), 1.0); }
double hardSwish(double x, const UnaryParams&) { return x * std::min(std::max(x + 3, 0.0), 6.0) / 6; }
double logSigmoid(double x, const UnaryParams&) {  // -softplus(-x), without overflow
  return std::min(x, 0.0) - std::log1p(std::exp(-std::fabs(x)));
}
double softPlus(double x, const UnaryParams&) {
  return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x)));
}
double gelu(double x, const UnaryParams& p) {  // p[0]: 0 the erf form, 1 the tanh approximation
  if (p[0] == 0) return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  const double k = std::sqrt(2 / std::acos(-1.0));
  return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
double shrink(double x, const UnaryParams& p) {  // lambd, bias
  return x > p[0] ? x - p[1] : x < -p[0] ? x + p[1] : 0;
}
// HardsigmoidV2 on int32: relu6(x + 3) / 6 in integer division, so 1 from x = 3 on, else 0.
void hardSigmoidInt(int64_t* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) v[i] = v[i] >= 3 ? 1 : 0;
}

const OpInfo kCeluV2{"aclnnCeluV2", ExecUnit::kVector, kF32F16,
                     "y = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))"};
const OpInfo kCeluV3{"aclnnCeluV3", ExecUnit::kVector, kFloats,
                     "out = max(0, self) + min(0, alpha * (exp(self / alpha) - 1))"};
const OpInfo kEluV2{"aclnnEluV2", ExecUnit::kVector, kFloats,
                    "out = self > 0 ? scale * self : scale * alpha * (exp(self * inputScale) - 1)"};
const OpInfo kLeakyreluV2{"aclnnLeakyreluV2", ExecUnit::kVector, kF32F16,
                          "y = x >= 0 ? x : negativeSlope * x"};
const OpInfo kHardsigmoidV2{"aclnnHardsigmoidV2",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32},
                            "out = min(max(self / 6 + 1/2, 0), 1); int32: 1 where self >= 3, else 0"};
const OpInfo kHardSwishV2{"aclnnHardSwishV2", ExecUnit::kVector, kF32F16,
                          "y = x * min(max(x + 3, 0), 6) / 6"};
const OpInfo kGeluV2{"aclnnGeluV2", ExecUnit::kVector, kFloats,
                     "y = x * Phi(x) (approximate 0) or its tanh approximation (1)"};
const OpInfo kShrink{"aclnnShrink", ExecUnit::kVector, kF32F16,
                     "out = self - bias above lambd, self + bias below -lambd, else 0"};
const OpInfo kLogSigmoidForward{
    "aclnnLogSigmoidForward", ExecUnit::kVector, kFloats,
    "out = ln(1 / (1 + exp(-self))); buffer not written (unused, as the doc says)"};
const OpInfo kLogsigmoidV2{"aclnnLogsigmoidV2", ExecUnit::kVector, kF32F16, "z = ln(1 / (1 + exp(-x)))"};
const OpInfo kSoftPlusV2{"aclnnSoftPlusV2", ExecUnit::kVector, kF32F16, "z = ln(1 + exp(x))"};

UnaryDef paramDef(const OpInfo& info, double (*f)(double, const UnaryParams&), int passes,
                  void (*i64)(int64_t*, int64_t) = nullptr) {
  UnaryDef d{&info, nullptr, nullptr, i64, passes};
  d.withParams = f;
  return d;
}
const UnaryDef kCeluV2Def = paramDef(kCeluV2, celu, 4), kCeluV3Def = paramDef(kCeluV3, celu, 4);
const UnaryDef kEluV2Def = paramDef(kEluV2, elu, 4), kLeakyreluV2Def = paramDef(kLeakyreluV2, leakyRelu, 1);
const UnaryDef kHardSwishV2Def = paramDef(kHardSwishV2, hardSwish, 3);
const UnaryDef kLogsigmoidV2Def = paramDef(kLogsigmoidV2, logSigmoid, 4);
const UnaryDef kSoftPlusV2Def = paramDef(kSoftPlusV2, softPlus, 4);
const UnaryDef kGeluV2Def = paramDef(kGeluV2, gelu, 6), kShrinkDef = paramDef(kShrink, shrink, 2);
const UnaryDef kLogSigmoidForwardDef = paramDef(kLogSigmoidForward, logSigmoid, 4);
// int32 self takes the integer path (i64), floats the fp64 one.
UnaryDef hardSigmoidDef() {
  UnaryDef d{&kHardsigmoidV2, nullptr, nullptr, hardSigmoidInt, 3};
  d.f32 = [](float* v, int64_t n) {
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(hardSigmoid(v[i], {}));
  };
  return d;
}
const UnaryDef kHardsigmoidV2Def = hardSigmoidDef();

// --- gradients: gradient * f'(x) on the activation-gradient engine ---
double dEluOfActivation(double a, const GradParams&) { return std::min(a, 0.0) + 1; }
double dHardShrink(double x, const GradParams& p) { return std::fabs(x) > p[0] ? 1 : 0; }
double dHardSigmoid(double x, const GradParams&) { return x > -3 && x < 3 ? 1.0 / 6 : 0; }
double dLeakyRelu(double x, const GradParams& p) { return x > 0 ? 1 : p[0]; }
double dTanhOfOutput(double y, const GradParams&) { return 1 - y * y; }
double dHardswish(double x, const GradParams&) { return x <= -3 ? 0 : x >= 3 ? 1 : x / 3 + 0.5; }

const OpInfo kEluGrad{"aclnnEluGrad", ExecUnit::kVector, kFloats, "y = (min(activations, 0) + 1) * grads"};
const OpInfo kHardShrinkGrad{"aclnnHardShrinkGrad", ExecUnit::kVector, kFloats,
                             "output = gradOutput where |self| > lambd, else 0"};
const OpInfo kHardSigmoidGradV2{"aclnnHardSigmoidGradV2", ExecUnit::kVector, kFloats,
                                "gradInput = gradOutput / 6 where -3 < self < 3, else 0"};
const OpInfo kLeakyReluGradV2{"aclnnLeakyReluGradV2", ExecUnit::kVector, kF32F16,
                              "dx = dy * (x > 0 ? 1 : negativeSlope)"};
const OpInfo kTanhGrad{"aclnnTanhGrad", ExecUnit::kVector, kFloats, "dx = dy * (1 - y * y)"};

const OpInfo kHardswishBackwardV2{"aclnnHardswishBackwardV2", ExecUnit::kVector, kFloats,
                                  "out = gradOutput * (self <= -3 ? 0 : self >= 3 ? 1 : self / 3 + 1/2)"};
const GradDef kHardswishBackwardV2Def{&kHardswishBackwardV2, dHardswish, 2};
const GradDef kEluGradDef{&kEluGrad, dEluOfActivation, 2};
const GradDef kHardShrinkGradDef{&kHardShrinkGrad, dHardShrink, 2};
const GradDef kHardSigmoidGradV2Def{&kHardSigmoidGradV2, dHardSigmoid, 2};
const GradDef kLeakyReluGradV2Def{&kLeakyReluGradV2, dLeakyRelu, 2};
const GradDef kTanhGradDef{&kTanhGrad, dTanhOfOutput, 2};

// --- two tensors element by element (binary engine, kCustom) ---
double reluGradV3(double x, double y) { return x > 0 ? y : 0; }
int64_t reluGradV3Int(int64_t x, int64_t y) { return x > 0 ? y : 0; }
double maskedGrad(double g, double mask) { return mask != 0 ? g : 0; }
int64_t maskedGradInt(int64_t g, int64_t mask) { return mask != 0 ? g : 0; }
double siluMul(double x, double y) { return x / (1 + std::exp(-x)) * y; }
double prelu(double x, double w) { return x > 0 ? x : w * x; }

const BinaryFn kReluGradV3Fn{reluGradV3, reluGradV3Int, 2};
const BinaryFn kMaskedGradFn{maskedGrad, maskedGradInt, 2};
const BinaryFn kSiluMulFn{siluMul, nullptr, 4};
const BinaryFn kPreluFn{prelu, nullptr, 2};

const OpInfo kReluGradV3{"aclnnReluGradV3", ExecUnit::kVector, kFloats, "z = x > 0 ? y : 0"};
const OpInfo kReluGradV4{"aclnnReluGradV4",
                         ExecUnit::kVector,
                         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT32},
                         "out = self != 0 ? gradOutput : 0 (self a uint8 mask)"};
const OpInfo kSiluMul{"aclnnSiluMul", ExecUnit::kVector, kFloats, "z = x / (1 + exp(-x)) * y"};
const OpInfo kPrelu{"aclnnPrelu", ExecUnit::kVector, kFloats, "out = self > 0 ? self : weight * self"};

const OpRegistrar kRegistrars[] = {OpRegistrar(kCeluV2),
                                   OpRegistrar(kCeluV3),
                                   OpRegistrar(kEluV2),
                                   OpRegistrar(kLeakyreluV2),
                                   OpRegistrar(kHardsigmoidV2),
                                   OpRegistrar(kHardSwishV2),
                                   OpRegistrar(kLogsigmoidV2),
                                   OpRegistrar(kSoftPlusV2),
                                   OpRegistrar(kEluGrad),
                                   OpRegistrar(kHardShrinkGrad),
                                   OpRegistrar(kHardSigmoidGradV2),
                                   OpRegistrar(kLeakyReluGradV2),
                                   OpRegistrar(kTanhGrad),
                                   OpRegistrar(kReluGradV3),
                                   OpRegistrar(kReluGradV4),
                                   OpRegistrar(kSiluMul),
                                   OpRegistrar(kPrelu)};

const OpInfo kPreluBackward{
    "aclnnPreluBackward", ExecUnit::kVector, kFloats,
    "gradInput = gradOutput * (self > 0 ? 1 : weight), gradWeight = sum(gradOutput * min(self, 0))"};
const OpInfo kRReluWithNoise{"aclnnRReluWithNoise", ExecUnit::kVector, kFloats,
                             "out = self > 0 ? self : (lower + upper) / 2 * self (evaluation mode)"};
const OpInfo kFusedBiasLeakyRelu{"aclnnFusedBiasLeakyRelu", ExecUnit::kVector, kF32F16,
                                 "y = scale * leaky_relu(x + bias, negativeSlope)"};
const OpInfo kReluV3{"aclnnReluV3",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_UINT8},
                     "y = max(x, 0), mask = bits of x > 0 packed along the last dimension"};
const OpRegistrar kDenseRegistrars[] = {OpRegistrar(kPreluBackward), OpRegistrar(kRReluWithNoise),
                                        OpRegistrar(kFusedBiasLeakyRelu), OpRegistrar(kReluV3)};
const UnaryDef kRReluDef = paramDef(kRReluWithNoise, leakyRelu, 1);

// RReluWithNoise: the slope of evaluation mode; training draws slopes from the device's random
// generator (seed, offset), which the simulator does not reproduce: refused with the reason.
int32_t rrelu(bool inplace, const aclTensor* self, const aclTensor* noise, const aclScalar* lower,
              const aclScalar* upper, bool training, const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const char* api =
      inplace ? "aclnnInplaceRReluWithNoiseGetWorkspaceSize" : "aclnnRReluWithNoiseGetWorkspaceSize";
  if (noise == nullptr || lower == nullptr || upper == nullptr || training) {
    npusim::rt::chargeOpPrepare(api);
    if (training) {
      return fail(
          api, kErrParamInvalid,
          "training mode draws the slopes from the device's random generator, which the simulator does not "
          "model; only training=false is simulated");
    }
    return checkNotNull(api, {{"noise", noise}, {"lower", lower}, {"upper", upper}});
  }
  const double slope = (lower->value.toDouble() + upper->value.toDouble()) / 2;
  return buildUnary(kRReluDef, api, inplace ? "aclnnInplaceRReluWithNoise" : "aclnnRReluWithNoise", self, out,
                    inplace, ws, ex, {slope, 0, 0, 0}, fmt::format("training=false, slope={}", slope));
}

std::string phase1(const OpInfo& info) { return info.name + "GetWorkspaceSize"; }

int32_t unaryWith(const UnaryDef& d, const aclTensor* x, const aclTensor* y, UnaryParams p,
                  const std::string& attrs, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = phase1(*d.info);
  return buildUnary(d, api.c_str(), d.info->name.c_str(), x, y, false, ws, ex, p, attrs);
}

int32_t grad(const GradDef& d, const char* gradName, const char* xName, const char* outName,
             const aclTensor* g, const aclTensor* x, const aclTensor* out, uint64_t* ws, aclOpExecutor** ex,
             GradParams p = {}, const std::string& attrs = "") {
  const std::string api = phase1(*d.info);
  GradArgs a{api.c_str(), gradName, xName, outName, p, attrs.c_str()};
  return buildActivationGrad(d, a, g, x, out, ws, ex);
}

int32_t binary(const OpInfo& info, const BinaryFn& fn, const aclTensor* a, const aclTensor* b,
               const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = phase1(info);
  return buildBinary({api.c_str(), info.name.c_str(), &info, BinaryKind::kCustom, false, &fn}, a, b, nullptr,
                     out, false, ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;
#define WS uint64_t *ws, aclOpExecutor **ex

extern "C" aclnnStatus aclnnCeluV2GetWorkspaceSize(const aclTensor* x, double alpha, const aclTensor* y, WS) {
  if (alpha == 0) {
    npusim::rt::chargeOpPrepare("aclnnCeluV2GetWorkspaceSize");
    return fail("aclnnCeluV2GetWorkspaceSize", kErrParamInvalid, "alpha must not be 0");
  }
  return unaryWith(kCeluV2Def, x, y, {alpha, 0, 0, 0}, fmt::format("alpha={}", alpha), ws, ex);
}
NPUSIM_ACLNN_PHASE2(CeluV2)
extern "C" aclnnStatus aclnnCeluV3GetWorkspaceSize(const aclTensor* self, double alpha, const aclTensor* out,
                                                   WS) {
  if (alpha == 0) {
    npusim::rt::chargeOpPrepare("aclnnCeluV3GetWorkspaceSize");
    return fail("aclnnCeluV3GetWorkspaceSize", kErrParamInvalid, "alpha must not be 0");
  }
  return unaryWith(kCeluV3Def, self, out, {alpha, 0, 0, 0}, fmt::format("alpha={}", alpha), ws, ex);
}
NPUSIM_ACLNN_PHASE2(CeluV3)
extern "C" aclnnStatus aclnnEluV2GetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                                  const aclScalar* scale, const aclScalar* inputScale,
                                                  aclTensor* out, WS) {
  const char* api = "aclnnEluV2GetWorkspaceSize";
  if (alpha == nullptr || scale == nullptr || inputScale == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"alpha", alpha}, {"scale", scale}, {"inputScale", inputScale}});
  }
  const UnaryParams p{alpha->value.toDouble(), scale->value.toDouble(), inputScale->value.toDouble(), 0};
  return unaryWith(kEluV2Def, self, out, p,
                   fmt::format("alpha={}, scale={}, inputScale={}", alpha->value.str(), scale->value.str(),
                               inputScale->value.str()),
                   ws, ex);
}
NPUSIM_ACLNN_PHASE2(EluV2)
extern "C" aclnnStatus aclnnLeakyreluV2GetWorkspaceSize(const aclTensor* x, double negativeSlope,
                                                        const aclTensor* y, WS) {
  return unaryWith(kLeakyreluV2Def, x, y, {negativeSlope, 0, 0, 0},
                   fmt::format("negativeSlope={}", negativeSlope), ws, ex);
}
NPUSIM_ACLNN_PHASE2(LeakyreluV2)
NPUSIM_ACLNN_UNARY(HardsigmoidV2, kHardsigmoidV2Def)
NPUSIM_ACLNN_UNARY_INPLACE_AS(HardsigmoidV2, kHardsigmoidV2Def, const aclTensor)
extern "C" aclnnStatus aclnnHardSwishV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, WS) {
  return unaryWith(kHardSwishV2Def, x, y, {}, "", ws, ex);
}
NPUSIM_ACLNN_PHASE2(HardSwishV2)
extern "C" aclnnStatus aclnnLogsigmoidV2GetWorkspaceSize(const aclTensor* x, const aclTensor* z, WS) {
  return unaryWith(kLogsigmoidV2Def, x, z, {}, "", ws, ex);
}
NPUSIM_ACLNN_PHASE2(LogsigmoidV2)
extern "C" aclnnStatus aclnnSoftPlusV2GetWorkspaceSize(const aclTensor* x, const aclTensor* z, WS) {
  return unaryWith(kSoftPlusV2Def, x, z, {}, "", ws, ex);
}
NPUSIM_ACLNN_PHASE2(SoftPlusV2)

extern "C" aclnnStatus aclnnEluGradGetWorkspaceSize(const aclTensor* grads, const aclTensor* activations,
                                                    const aclTensor* y, WS) {
  return grad(kEluGradDef, "grads", "activations", "y", grads, activations, y, ws, ex);
}
NPUSIM_ACLNN_PHASE2(EluGrad)
extern "C" aclnnStatus aclnnHardShrinkGradGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                           double lambd, const aclTensor* output, WS) {
  return grad(kHardShrinkGradDef, "gradOutput", "self", "output", gradOutput, self, output, ws, ex,
              {lambd, 0, 0, 0}, fmt::format("lambd={}", lambd));
}
NPUSIM_ACLNN_PHASE2(HardShrinkGrad)
extern "C" aclnnStatus aclnnHardSigmoidGradV2GetWorkspaceSize(const aclTensor* gradOutput,
                                                              const aclTensor* self,
                                                              const aclTensor* gradInput, WS) {
  return grad(kHardSigmoidGradV2Def, "gradOutput", "self", "gradInput", gradOutput, self, gradInput, ws, ex);
}
NPUSIM_ACLNN_PHASE2(HardSigmoidGradV2)
extern "C" aclnnStatus aclnnLeakyReluGradV2GetWorkspaceSize(const aclTensor* dy, const aclTensor* x,
                                                            double negativeSlope, const aclTensor* dx, WS) {
  return grad(kLeakyReluGradV2Def, "dy", "x", "dx", dy, x, dx, ws, ex, {negativeSlope, 0, 0, 0},
              fmt::format("negativeSlope={}", negativeSlope));
}
NPUSIM_ACLNN_PHASE2(LeakyReluGradV2)
extern "C" aclnnStatus aclnnTanhGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy,
                                                     const aclTensor* dx, WS) {
  return grad(kTanhGradDef, "dy", "y", "dx", dy, y, dx, ws, ex);
}
NPUSIM_ACLNN_PHASE2(TanhGrad)

extern "C" aclnnStatus aclnnReluGradV3GetWorkspaceSize(const aclTensor* x, const aclTensor* y,
                                                       const aclTensor* z, WS) {
  return binary(kReluGradV3, kReluGradV3Fn, x, y, z, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ReluGradV3)
extern "C" aclnnStatus aclnnReluGradV4GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                       const aclScalar* threshold, aclTensor* out, WS) {
  const char* api = "aclnnReluGradV4GetWorkspaceSize";
  // The README: self is the forward's uint8 mask, threshold a scalar equal to 0.
  if (self != nullptr && self->desc.dtype != ACL_UINT8) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("self (the mask) must be uint8, not {}", dtypeName(self->desc.dtype)));
  }
  if (threshold != nullptr && threshold->value.toDouble() != 0) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid, fmt::format("threshold must be 0, not {}", threshold->value.str()));
  }
  return binary(kReluGradV4, kMaskedGradFn, gradOutput, self, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ReluGradV4)
extern "C" aclnnStatus aclnnSiluMulGetWorkspaceSize(const aclTensor* x, const aclTensor* y,
                                                    const aclTensor* z, WS) {
  return binary(kSiluMul, kSiluMulFn, x, y, z, ws, ex);
}
NPUSIM_ACLNN_PHASE2(SiluMul)

// weight: one value, or one per channel (self's dim 1; its only dim when self is 1-D), viewed
// as [C, 1, ..., 1] so that the binary engine broadcasts it along the channels.
extern "C" aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                                  aclTensor* out, WS) {
  const char* api = "aclnnPreluGetWorkspaceSize";
  if (self == nullptr || weight == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"self", self}, {"weight", weight}});
  }
  const int64_t n = weight->desc.numel(), rank = static_cast<int64_t>(self->desc.rank());
  const int64_t channels = rank >= 2 ? self->desc.shape[1] : 1;
  if (n != 1 && n != channels) {
    npusim::rt::chargeOpPrepare(api);
    return fail(api, kErrParamInvalid,
                fmt::format("weight has {} elements, not 1 or the {} channels of self", n, channels));
  }
  aclTensor w{weight->desc};
  if (n == channels && rank >= 2) {
    w.desc.shape.assign(static_cast<size_t>(rank - 1), 1);
    w.desc.shape[0] = n;
    w.desc.strides.assign(static_cast<size_t>(rank - 1), 0);
    w.desc.strides[0] = weight->desc.rank() == 0 ? 0 : weight->desc.strides.back();
  } else {  // one value, as a 0-d view
    w.desc.shape.clear();
    w.desc.strides.clear();
  }
  return binary(kPrelu, kPreluFn, self, &w, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Prelu)

extern "C" aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
                                                   WS) {
  if (approximate != 0 && approximate != 1) {
    npusim::rt::chargeOpPrepare("aclnnGeluV2GetWorkspaceSize");
    return fail("aclnnGeluV2GetWorkspaceSize", kErrParamInvalid,
                fmt::format("approximate must be 0 (none) or 1 (tanh), not {}", approximate));
  }
  return unaryWith(kGeluV2Def, x, y, {static_cast<double>(approximate), 0, 0, 0},
                   fmt::format("approximate={}", approximate), ws, ex);
}
NPUSIM_ACLNN_PHASE2(GeluV2)
extern "C" aclnnStatus aclnnShrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd,
                                                   const aclScalar* bias, aclTensor* out, WS) {
  const char* api = "aclnnShrinkGetWorkspaceSize";
  if (lambd == nullptr || bias == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"lambd", lambd}, {"bias", bias}});
  }
  return unaryWith(kShrinkDef, self, out, {lambd->value.toDouble(), bias->value.toDouble(), 0, 0},
                   fmt::format("lambd={}, bias={}", lambd->value.str(), bias->value.str()), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Shrink)
extern "C" aclnnStatus aclnnLogSigmoidForwardGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                              aclTensor* buffer, WS) {
  if (buffer == nullptr) {
    npusim::rt::chargeOpPrepare("aclnnLogSigmoidForwardGetWorkspaceSize");
    return checkNotNull("aclnnLogSigmoidForwardGetWorkspaceSize", {{"buffer", buffer}});
  }
  return unaryWith(kLogSigmoidForwardDef, self, out, {}, "", ws, ex);
}
NPUSIM_ACLNN_PHASE2(LogSigmoidForward)
extern "C" aclnnStatus aclnnHardswishBackwardV2GetWorkspaceSize(const aclTensor* gradOutput,
                                                                const aclTensor* self, aclTensor* out, WS) {
  return grad(kHardswishBackwardV2Def, "gradOutput", "self", "out", gradOutput, self, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(HardswishBackwardV2)

extern "C" aclnnStatus aclnnRReluWithNoiseGetWorkspaceSize(const aclTensor* self, const aclTensor* noise,
                                                           const aclScalar* lower, const aclScalar* upper,
                                                           bool training, int64_t seed, int64_t offset,
                                                           aclTensor* out, WS) {
  (void)seed;  // evaluation mode draws nothing
  (void)offset;
  return rrelu(false, self, noise, lower, upper, training, out, ws, ex);
}
NPUSIM_ACLNN_PHASE2(RReluWithNoise)
extern "C" aclnnStatus aclnnInplaceRReluWithNoiseGetWorkspaceSize(const aclTensor* self,
                                                                  const aclTensor* noise,
                                                                  const aclScalar* lower,
                                                                  const aclScalar* upper, bool training,
                                                                  int64_t seed, int64_t offset, WS) {
  (void)seed;
  (void)offset;
  return rrelu(true, self, noise, lower, upper, training, self, ws, ex);
}
NPUSIM_ACLNN_PHASE2(InplaceRReluWithNoise)

// weight: one value or one per channel (self's dim 1); gradWeight has weight's shape.
extern "C" aclnnStatus aclnnPreluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                          const aclTensor* weight, aclTensor* gradInput,
                                                          aclTensor* gradWeight, WS) {
  const char* api = "aclnnPreluBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"gradOutput", gradOutput},
                                  {"self", self},
                                  {"weight", weight},
                                  {"gradInput", gradInput},
                                  {"gradWeight", gradWeight}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"gradOutput", gradOutput},
                         {"self", self},
                         {"weight", weight},
                         {"gradInput", gradInput},
                         {"gradWeight", gradWeight}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kPreluBackward)) != kSuccess) return st;
  }
  if ((st = checkShape(api, "gradOutput", gradOutput->desc.shape, self->desc.shape)) != kSuccess) return st;
  if ((st = checkShape(api, "gradInput", gradInput->desc.shape, self->desc.shape)) != kSuccess) return st;
  if ((st = checkShape(api, "gradWeight", gradWeight->desc.shape, weight->desc.shape)) != kSuccess) return st;
  const int64_t channels = self->desc.rank() >= 2 ? self->desc.shape[1] : 1, n = weight->desc.numel();
  if (n != 1 && n != channels) {
    return fail(api, kErrParamInvalid,
                fmt::format("weight has {} elements, not 1 or the {} channels", n, channels));
  }
  int64_t inner = 1;
  for (size_t d = 2; d < self->desc.rank(); ++d) inner *= self->desc.shape[d];
  auto inst = newDense(
      kPreluBackward,
      [channels, inner, n](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        const std::vector<double> g = loadDense<double>(in[0]), x = loadDense<double>(in[1]),
                                  w = loadDense<double>(in[2]);
        std::vector<double> gi(x.size()), gw(static_cast<size_t>(n), 0.0);
        for (size_t i = 0; i < x.size(); ++i) {
          const size_t c = n == 1 ? 0 : (i / static_cast<size_t>(inner)) % static_cast<size_t>(channels);
          gi[i] = x[i] > 0 ? g[i] : w[c] * g[i];
          if (x[i] <= 0) gw[c] += g[i] * x[i];
        }
        storeDense(out[0], gi.data());
        storeDense(out[1], gw.data());
      },
      3);
  addInput(*inst, "gradOutput", gradOutput);
  addInput(*inst, "self", self);
  addInput(*inst, "weight", weight);
  addOutput(*inst, "gradInput", gradInput);
  addOutput(*inst, "gradWeight", gradWeight);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(PreluBackward)

// bias: x's shape and type; y = scale * (t >= 0 ? t : negativeSlope * t), t = x + bias.
extern "C" aclnnStatus aclnnFusedBiasLeakyReluGetWorkspaceSize(const aclTensor* x, const aclTensor* bias,
                                                               double negativeSlope, double scale,
                                                               const aclTensor* out, WS) {
  const char* api = "aclnnFusedBiasLeakyReluGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"bias", bias}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"x", x}, {"bias", bias}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != x->desc.dtype)
      return fail(api, kErrParamInvalid, fmt::format("{} must have x's type", name));
    if ((st = checkShape(api, name, t->desc.shape, x->desc.shape)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "x", x->desc.dtype, kFusedBiasLeakyRelu)) != kSuccess) return st;
  auto inst = newDense(
      kFusedBiasLeakyRelu,
      [negativeSlope, scale](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
        std::vector<double> v = loadDense<double>(in[0]);
        const std::vector<double> b = loadDense<double>(in[1]);
        for (size_t i = 0; i < v.size(); ++i) {
          const double t = v[i] + b[i];
          v[i] = scale * (t >= 0 ? t : negativeSlope * t);
        }
        storeDense(o[0], v.data());
      },
      2);
  inst->attrs = fmt::format("negativeSlope={}, scale={}", negativeSlope, scale);
  addInput(*inst, "x", x);
  addInput(*inst, "bias", bias);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(FusedBiasLeakyRelu)

// mask: x's shape with the last dimension / 8 (the README: that dimension a multiple of 8).
extern "C" aclnnStatus aclnnReluV3GetWorkspaceSize(const aclTensor* x, aclTensor* yOut, aclTensor* maskOut,
                                                   WS) {
  const char* api = "aclnnReluV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x}, {"yOut", yOut}, {"maskOut", maskOut}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"x", x}, {"yOut", yOut}, {"maskOut", maskOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "x", x->desc.dtype, kReluV3)) != kSuccess) return st;
  if (yOut->desc.dtype != x->desc.dtype) return fail(api, kErrParamInvalid, "yOut must have x's type");
  if ((st = checkShape(api, "yOut", yOut->desc.shape, x->desc.shape)) != kSuccess) return st;
  if (x->desc.rank() == 0 || x->desc.shape.back() % 8 != 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("x's last dimension must be a multiple of 8, x is {}", shapeString(x->desc.shape)));
  }
  std::vector<int64_t> maskShape = x->desc.shape;
  maskShape.back() /= 8;
  if (maskOut->desc.dtype != ACL_UINT8) return fail(api, kErrParamInvalid, "maskOut must be uint8");
  if ((st = checkShape(api, "maskOut", maskOut->desc.shape, maskShape)) != kSuccess) return st;
  auto inst = newDense(
      kReluV3,
      [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
        std::vector<double> v = loadDense<double>(in[0]);
        std::vector<int64_t> bits(v.size() / 8, 0);
        for (size_t i = 0; i < v.size(); ++i) {
          if (v[i] > 0) bits[i / 8] |= int64_t{1} << (i % 8);
          v[i] = v[i] > 0 ? v[i] : 0;  // NaN gives 0 here; not a case the mask can express
        }
        storeDense(out[0], v.data());
        storeDense(out[1], bits.data());
      },
      2);
  addInput(*inst, "x", x);
  addOutput(*inst, "yOut", yOut);
  addOutput(*inst, "maskOut", maskOut);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(ReluV3)
