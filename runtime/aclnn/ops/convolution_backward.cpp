// aclnnConvolutionBackward and aclnnConvTbcBackward (ops-nn conv/convolution_backward/docs):
// the gradients of a convolution on the convolution engine (conv_op.h). gradInput is the
// transposed product of gradOutput with the weight, gradWeight the correlation of input with
// gradOutput, gradBias the sum of gradOutput over batch and positions.
#include <fmt/format.h>

#include <array>
#include <initializer_list>
#include <memory>
#include <utility>

#include "aclnnop/aclnn_convolution_backward.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/conv_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kBackward{"aclnnConvolutionBackward", ExecUnit::kCube, kConvTypes,
                       "gradInput, gradWeight, gradBias of aclnnConvolution (selected by outputMask)"};
const OpInfo kTbcBackward{"aclnnConvTbcBackward", ExecUnit::kCube, kConvTypes,
                          "gradInput, gradWeight, gradBias of aclnnConvTbc"};
const OpRegistrar kR1(kBackward), kR2(kTbcBackward);

struct Grads {
  const aclTensor* input;
  const aclTensor* weight;
  const aclTensor* bias;
};

int32_t buildBackward(const char* api, const char* opName, const OpInfo& info, const aclTensor* gradOutput,
                      const aclTensor* input, const aclTensor* weight, const ConvParams& p,
                      const std::array<bool, 3>& mask, int8_t cubeMathType, const Grads& grads,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  int32_t st = kSuccess;
  const std::pair<const char*, const aclTensor*> operands[] = {
      {"gradOutput", gradOutput}, {"input", input}, {"weight", weight}};
  for (const auto& [name, t] : operands) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
  }
  const aclDataType it = input->desc.dtype, wt = weight->desc.dtype, gt = gradOutput->desc.dtype;
  if ((it == ACL_BF16) != (wt == ACL_BF16) || (it == ACL_BF16) != (gt == ACL_BF16)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("gradOutput {}, input {} and weight {} cannot be promoted (bf16 only pairs with bf16)",
                    dtypeName(gt), dtypeName(it), dtypeName(wt)));
  }
  const aclDataType promoted = promoteTypes(promoteTypes(it, wt), gt);
  ConvGeometry g;
  std::vector<int64_t> outShape;
  if ((st = convGeometryFor(api, input->desc, weight->desc, p, &g, &outShape)) != kSuccess) return st;
  if ((st = checkShape(api, "gradOutput", gradOutput->desc.shape, outShape)) != kSuccess) return st;
  const std::array<const char*, 3> names{"gradInput", "gradWeight", "gradBias"};
  const std::array<const aclTensor*, 3> outs{grads.input, grads.weight, grads.bias};
  const std::array<std::vector<int64_t>, 3> shapes{input->desc.shape, weight->desc.shape,
                                                   std::vector<int64_t>{outShape[1]}};
  for (size_t i = 0; i < 3; ++i) {
    if (!mask[i]) continue;
    if (outs[i] == nullptr) {
      return fail(api, kErrParamNullptr,
                  fmt::format("{} is a null pointer but outputMask[{}] is true", names[i], i));
    }
    if ((st = checkTensor(api, names[i], outs[i]->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, names[i], outs[i]->desc.dtype, info)) != kSuccess) return st;
    if ((st = checkShape(api, names[i], outs[i]->desc.shape, shapes[i])) != kSuccess) return st;
  }
  MatmulSpec spec;
  if ((st = convSpecFor(api, promoted, cubeMathType, &spec)) != kSuccess) return st;

  auto inst = std::make_unique<ConvInstance>();
  inst->name = opName;
  inst->geo = g;
  inst->transposed = p.transposed;
  inst->spec = spec;
  inst->backward = true;
  addInput(*inst, "gradOutput", gradOutput);
  addInput(*inst, "input", input);
  addInput(*inst, "weight", weight);
  int* index[3] = {&inst->gradInput, &inst->gradWeight, &inst->gradBias};
  for (size_t i = 0; i < 3; ++i) {
    if (!mask[i]) continue;
    *index[i] = static_cast<int>(inst->outputs.size());
    addOutput(*inst, names[i], outs[i]);
  }
  inst->attrs = fmt::format(
      "stride={}, padding={}/{}, dilation={}, transposed={}, outputPadding={}, groups={}, "
      "outputMask=[{},{},{}], cubeMathType={}",
      shapeString(p.stride), shapeString(p.padLo), shapeString(p.padHi), shapeString(p.dilation),
      p.transposed, shapeString(p.outputPadding), p.groups, mask[0], mask[1], mask[2],
      static_cast<int>(cubeMathType));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::ConvParams;

extern "C" {

aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight,
    const aclIntArray* biasSizes, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int groups,
    const aclBoolArray* outputMask, int8_t cubeMathType, aclTensor* gradInput, aclTensor* gradWeight,
    aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnConvolutionBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = a::checkNotNull(
      api, {{"gradOutput", gradOutput}, {"input", input}, {"weight", weight}, {"outputMask", outputMask}});
  if (st != a::kSuccess) return st;
  if (outputMask->values.size() != 3) {
    return a::fail(api, a::kErrParamInvalid,
                   fmt::format("outputMask must have 3 values, but has {}", outputMask->values.size()));
  }
  if (input->desc.rank() < 3 || input->desc.rank() > 5 || weight->desc.rank() != input->desc.rank()) {
    return a::fail(
        api, a::kErrParamInvalid,
        fmt::format("input must have 3 to 5 dimensions (NCL, NCHW, NCDHW) and weight as many, but they "
                    "are {} and {}",
                    a::shapeString(input->desc.shape), a::shapeString(weight->desc.shape)));
  }
  ConvParams p;
  st = a::convParamsFrom(api, input->desc.rank() - 2, stride, padding, dilation, transposed, outputPadding,
                         groups, &p);
  if (st != a::kSuccess) return st;
  const std::array<bool, 3> mask{outputMask->values[0], outputMask->values[1], outputMask->values[2]};
  if (mask[2] && biasSizes != nullptr) {
    // biasSizes names the bias the forward had: one value, the output channels.
    const int64_t outCh = transposed ? weight->desc.shape[1] * groups : weight->desc.shape[0];
    if (biasSizes->values.size() != 1 || biasSizes->values[0] != outCh) {
      return a::fail(api, a::kErrParamInvalid,
                     fmt::format("biasSizes must be [{}] (the output channels), but is {}", outCh,
                                 a::shapeString(biasSizes->values)));
    }
  }
  return a::buildBackward(api, "aclnnConvolutionBackward", a::kBackward, gradOutput, input, weight, p, mask,
                          cubeMathType, {gradInput, gradWeight, gradBias}, workspaceSize, executor);
}

aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(const aclTensor* self, const aclTensor* input,
                                                 const aclTensor* weight, const aclTensor* bias, int64_t pad,
                                                 int8_t cubeMathType, aclTensor* gradInput,
                                                 aclTensor* gradWeight, aclTensor* gradBias,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnConvTbcBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = a::checkNotNull(api, {{"self", self},
                                     {"input", input},
                                     {"weight", weight},
                                     {"bias", bias},
                                     {"gradInput", gradInput},
                                     {"gradWeight", gradWeight},
                                     {"gradBias", gradBias}});
  if (st != a::kSuccess) return st;
  for (const aclTensor* t :
       std::initializer_list<const aclTensor*>{self, input, weight, gradInput, gradWeight}) {
    if (t->desc.rank() != 3) {
      return a::fail(api, a::kErrParamInvalid,
                     fmt::format("self, input, weight, gradInput and gradWeight must be 3-D, but one is {}",
                                 a::shapeString(t->desc.shape)));
    }
  }
  if (pad < 0 || pad > 255) {
    return a::fail(api, a::kErrParamInvalid, fmt::format("pad must be in [0, 255], but is {}", pad));
  }
  if ((st = a::checkShape(api, "bias", bias->desc.shape, {weight->desc.shape[2]})) != a::kSuccess) return st;
  // As aclnnConvTbc: time-major [T, B, C] tensors seen as [B, C, T], weight [K, Cin, Cout] as [Cout, Cin, K].
  const aclTensor dy = a::convPermuted(*self, {1, 2, 0});
  const aclTensor x = a::convPermuted(*input, {1, 2, 0});
  const aclTensor w = a::convPermuted(*weight, {2, 1, 0});
  const aclTensor dx = a::convPermuted(*gradInput, {1, 2, 0});
  const aclTensor dw = a::convPermuted(*gradWeight, {2, 1, 0});
  ConvParams p;
  p.stride = p.dilation = {1};
  p.padLo = p.padHi = {pad};
  p.outputPadding = {0};
  return a::buildBackward(api, "aclnnConvTbcBackward", a::kTbcBackward, &dy, &x, &w, p, {true, true, true},
                          cubeMathType, {&dx, &dw, gradBias}, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(ConvolutionBackward)
NPUSIM_ACLNN_PHASE2(ConvTbcBackward)
