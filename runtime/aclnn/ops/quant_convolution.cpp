// aclnnQuantConvolution (ops-nn conv/convolution_forward/docs/aclnnQuantConvolution.md) on the
// convolution engine: output = (sum of int8 input x int8 weight) * scale[c] + bias[c]. Atlas A2
// takes the 3-D forward form only: int8 operands, groups 1, fp32 scale, fp32/fp16/bf16 bias
// (converted to fp32), fp16/bf16 output; offset, offsetx and roundMode are reserved.
#include <fmt/format.h>

#include <initializer_list>
#include <memory>
#include <utility>

#include "aclnnop/aclnn_quant_convolution.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/conv_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnQuantConvolution",
                   ExecUnit::kCube,
                   {ACL_INT8, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "output = (int8 input (*) int8 weight) * scale + bias, 3-D"};
const OpRegistrar kRegistrar(kInfo);

int32_t checkType(const char* api, const char* name, const aclTensor* t,
                  std::initializer_list<aclDataType> ok, const char* list) {
  int32_t st = checkTensor(api, name, t->desc);
  if (st != kSuccess) return st;
  for (aclDataType d : ok) {
    if (t->desc.dtype == d) return kSuccess;
  }
  return fail(api, kErrParamInvalid,
              fmt::format("{} must be {}, but is {}", name, list, dtypeName(t->desc.dtype)));
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnQuantConvolutionGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclTensor* scale,
    const aclTensor* offset, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int64_t groups,
    int32_t offsetx, const char* roundMode, aclTensor* output, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  namespace a = npusim::aclnn;
  const char* api = "aclnnQuantConvolutionGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  (void)outputPadding;  // reserved: only read by transposed convolutions, which are refused
  int32_t st =
      a::checkNotNull(api, {{"input", input}, {"weight", weight}, {"scale", scale}, {"output", output}});
  if (st != a::kSuccess) return st;
  if ((st = a::checkType(api, "input", input, {ACL_INT8}, "int8")) != a::kSuccess) return st;
  if ((st = a::checkType(api, "weight", weight, {ACL_INT8}, "int8")) != a::kSuccess) return st;
  if ((st = a::checkType(api, "scale", scale, {ACL_FLOAT}, "fp32")) != a::kSuccess) return st;
  if ((st = a::checkType(api, "output", output, {ACL_FLOAT16, ACL_BF16}, "fp16 or bf16")) != a::kSuccess)
    return st;
  if (bias != nullptr && (st = a::checkType(api, "bias", bias, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                            "fp32, fp16 or bf16")) != a::kSuccess) {
    return st;
  }
  if (input->desc.rank() != 5) {
    return a::fail(
        api, a::kErrParamInvalid,
        fmt::format("Atlas A2 takes 3-D quantised convolutions only: input must be NCDHW, but is {}",
                    a::shapeString(input->desc.shape)));
  }
  if (transposed || groups != 1 || offset != nullptr || offsetx != 0 || roundMode != nullptr) {
    return a::fail(api, a::kErrParamInvalid,
                   "on Atlas A2 transposed must be false, groups 1, offset and roundMode null and offsetx 0 "
                   "(aclnnQuantConvolution.md, constraints)");
  }
  for (const aclTensor* t : {input, weight, scale, static_cast<const aclTensor*>(output)}) {
    if (t->desc.numel() == 0) {
      return a::fail(api, a::kErrParamInvalid,
                     fmt::format("empty tensors are not supported ({})", a::shapeString(t->desc.shape)));
    }
  }
  a::ConvParams p;
  if ((st = a::convParamsFrom(api, 3, stride, padding, dilation, false, nullptr, 1, &p)) != a::kSuccess)
    return st;
  a::ConvGeometry g;
  std::vector<int64_t> outShape;
  if ((st = a::convGeometryFor(api, input->desc, weight->desc, p, &g, &outShape)) != a::kSuccess) return st;
  if ((st = a::checkShape(api, "output", output->desc.shape, outShape)) != a::kSuccess) return st;
  if ((st = a::checkShape(api, "scale", scale->desc.shape, {outShape[1]})) != a::kSuccess) return st;
  if (bias != nullptr && (st = a::checkShape(api, "bias", bias->desc.shape, {outShape[1]})) != a::kSuccess) {
    return st;
  }

  auto inst = std::make_unique<a::ConvInstance>();
  inst->name = "aclnnQuantConvolution";
  inst->geo = g;
  inst->quant = true;
  a::addInput(*inst, "input", input);
  a::addInput(*inst, "weight", weight);
  a::addInput(*inst, "scale", scale);
  if (bias != nullptr) {
    inst->hasBias = true;
    a::addInput(*inst, "bias", bias);
  }
  a::addOutput(*inst, "output", output);
  inst->attrs = fmt::format("stride={}, padding={}, dilation={}", a::shapeString(p.stride),
                            a::shapeString(p.padLo), a::shapeString(p.dilation));
  return a::makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(QuantConvolution)
