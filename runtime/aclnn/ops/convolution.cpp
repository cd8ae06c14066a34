// aclnnConvolution, aclnnConvDepthwise2d, aclnnConvTbc (ops-nn conv/convolution_forward/docs):
// forward convolutions on the convolution engine (conv_op.h). ConvTbc's time-major tensors
// are handed to the engine as permuted views, without a copy.
#include <fmt/format.h>

#include <initializer_list>
#include <memory>
#include <utility>

#include "aclnnop/aclnn_convolution.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/conv_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kConvolution{"aclnnConvolution", ExecUnit::kCube, kConvTypes,
                          "output = weight (*) input + bias; 1-D/2-D/3-D, groups, dilation, transposed"};
const OpInfo kDepthwise{"aclnnConvDepthwise2d", ExecUnit::kCube, kConvTypes,
                        "out = depthwise 2-D convolution of self (groups = channels) + bias"};
const OpInfo kTbc{
    "aclnnConvTbc", ExecUnit::kCube, kConvTypes,
    "out[T', B, Cout] = 1-D convolution over time of self[T, B, Cin] with weight[K, Cin, Cout] + bias"};
const OpRegistrar kR1(kConvolution), kR2(kDepthwise), kR3(kTbc);

struct ForwardArgs {
  const char* api;
  const char* opName;
  const OpInfo& info;
};

int32_t buildForward(const ForwardArgs& a, const aclTensor* input, const aclTensor* weight,
                     const aclTensor* bias, const ConvParams& p, const aclTensor* output, int8_t cubeMathType,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = a.api;
  int32_t st = kSuccess;
  const std::pair<const char*, const aclTensor*> tensors[] = {
      {"input", input}, {"weight", weight}, {"output", output}};
  for (const auto& [name, t] : tensors) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, a.info)) != kSuccess) return st;
  }
  const aclDataType it = input->desc.dtype, wt = weight->desc.dtype;
  if ((it == ACL_BF16) != (wt == ACL_BF16)) {
    return fail(api, kErrParamInvalid,
                fmt::format("input type {} and weight type {} cannot be promoted (bf16 only pairs with bf16)",
                            dtypeName(it), dtypeName(wt)));
  }
  const aclDataType promoted = promoteTypes(it, wt);
  if (p.transposed && output->desc.dtype != promoted) {
    return fail(api, kErrParamInvalid,
                fmt::format("a transposed convolution writes {} (the operands' type), but output is {}",
                            dtypeName(promoted), dtypeName(output->desc.dtype)));
  }
  ConvGeometry g;
  std::vector<int64_t> outShape;
  if ((st = convGeometryFor(api, input->desc, weight->desc, p, &g, &outShape)) != kSuccess) return st;
  if ((st = checkShape(api, "output", output->desc.shape, outShape)) != kSuccess) return st;
  if (bias != nullptr) {
    if ((st = checkTensor(api, "bias", bias->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, "bias", bias->desc.dtype, a.info)) != kSuccess) return st;
    if ((st = checkShape(api, "bias", bias->desc.shape, {outShape[1]})) != kSuccess) return st;
  }
  MatmulSpec spec;
  if ((st = convSpecFor(api, promoted, cubeMathType, &spec)) != kSuccess) return st;

  auto inst = std::make_unique<ConvInstance>();
  inst->name = a.opName;
  inst->geo = g;
  inst->transposed = p.transposed;
  inst->spec = spec;
  addInput(*inst, "input", input);
  addInput(*inst, "weight", weight);
  if (bias != nullptr) {
    inst->hasBias = true;
    addInput(*inst, "bias", bias);
  }
  addOutput(*inst, "output", output);
  inst->attrs = fmt::format(
      "stride={}, padding={}/{}, dilation={}, transposed={}, outputPadding={}, groups={}, "
      "cubeMathType={}",
      shapeString(p.stride), shapeString(p.padLo), shapeString(p.padHi), shapeString(p.dilation),
      p.transposed, shapeString(p.outputPadding), p.groups, static_cast<int>(cubeMathType));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::ConvParams;

extern "C" {

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                             const aclTensor* bias, const aclIntArray* stride,
                                             const aclIntArray* padding, const aclIntArray* dilation,
                                             bool transposed, const aclIntArray* outputPadding,
                                             const int64_t groups, aclTensor* output, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnConvolutionGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = a::checkNotNull(api, {{"input", input}, {"weight", weight}, {"output", output}});
  if (st != a::kSuccess) return st;
  if (input->desc.rank() < 3 || input->desc.rank() > 5) {
    return a::fail(api, a::kErrParamInvalid,
                   fmt::format("input must have 3 to 5 dimensions (NCL, NCHW, NCDHW), but is {}",
                               a::shapeString(input->desc.shape)));
  }
  ConvParams p;
  st = a::convParamsFrom(api, input->desc.rank() - 2, stride, padding, dilation, transposed, outputPadding,
                         groups, &p);
  if (st != a::kSuccess) return st;
  return a::buildForward({api, "aclnnConvolution", a::kConvolution}, input, weight, bias, p, output,
                         cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                                 const aclIntArray* kernelSize, const aclTensor* bias,
                                                 const aclIntArray* stride, const aclIntArray* padding,
                                                 const aclIntArray* dilation, aclTensor* out,
                                                 int8_t cubeMathType, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnConvDepthwise2dGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = a::checkNotNull(api, {{"self", self}, {"weight", weight}, {"out", out}});
  if (st != a::kSuccess) return st;
  if (self->desc.rank() != 4 || weight->desc.rank() != 4) {
    return a::fail(api, a::kErrParamInvalid,
                   fmt::format("self and weight must be 4-D (NCHW), but are {} and {}",
                               a::shapeString(self->desc.shape), a::shapeString(weight->desc.shape)));
  }
  std::vector<int64_t> kernel;
  if ((st = a::convIntArray(api, "kernelSize", kernelSize, 2, 0, &kernel)) != a::kSuccess) return st;
  if (kernel[0] != weight->desc.shape[2] || kernel[1] != weight->desc.shape[3]) {
    return a::fail(api, a::kErrParamInvalid,
                   fmt::format("kernelSize {} must equal weight's spatial sizes {}", a::shapeString(kernel),
                               a::shapeString(weight->desc.shape)));
  }
  ConvParams p;
  // Depthwise: one group per input channel, weight [Cout, 1, kh, kw] with Cout a multiple of C.
  st = a::convParamsFrom(api, 2, stride, padding, dilation, false, nullptr, self->desc.shape[1], &p);
  if (st != a::kSuccess) return st;
  if (p.groups < 1) {
    return a::fail(
        api, a::kErrParamInvalid,
        fmt::format("self must have at least one channel, but is {}", a::shapeString(self->desc.shape)));
  }
  return a::buildForward({api, "aclnnConvDepthwise2d", a::kDepthwise}, self, weight, bias, p, out,
                         cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                         const aclTensor* bias, const int64_t pad, aclTensor* output,
                                         int8_t cubeMathType, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnConvTbcGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = a::checkNotNull(api, {{"self", self}, {"weight", weight}, {"bias", bias}, {"output", output}});
  if (st != a::kSuccess) return st;
  for (const aclTensor* t : std::initializer_list<const aclTensor*>{self, weight, output}) {
    if (t->desc.rank() != 3) {
      return a::fail(api, a::kErrParamInvalid,
                     fmt::format("self, weight and output must be 3-D, but are {}, {} and {}",
                                 a::shapeString(self->desc.shape), a::shapeString(weight->desc.shape),
                                 a::shapeString(output->desc.shape)));
    }
  }
  if (pad < 0 || pad > 255) {
    return a::fail(api, a::kErrParamInvalid, fmt::format("pad must be in [0, 255], but is {}", pad));
  }
  // self [T, B, Cin] -> [B, Cin, T]; weight [K, Cin, Cout] -> [Cout, Cin, K]; output [T', B, Cout] -> [B,
  // Cout, T'].
  const aclTensor in = a::convPermuted(*self, {1, 2, 0});
  const aclTensor w = a::convPermuted(*weight, {2, 1, 0});
  const aclTensor out = a::convPermuted(*output, {1, 2, 0});
  ConvParams p;
  p.stride = p.dilation = {1};
  p.padLo = p.padHi = {pad};
  p.outputPadding = {0};
  return a::buildForward({api, "aclnnConvTbc", a::kTbc}, &in, &w, bias, p, &out, cubeMathType, workspaceSize,
                         executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Convolution)
NPUSIM_ACLNN_PHASE2(ConvDepthwise2d)
NPUSIM_ACLNN_PHASE2(ConvTbc)
