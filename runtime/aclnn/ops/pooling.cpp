// Pooling operators (ops-nn pooling/*, experimental/pooling/*): each entry point turns its
// arguments into a PoolSpec (pooling_op.h) and names its tensors; the engine does the rest.
// MaxPoolingGrad is elementwise (dx = dy where x equals y) and runs on the pointwise engine.
#include <fmt/format.h>

#include <cstring>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d_backward.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_max_pool3d.h"
#include "aclnnop/aclnn_adaptive_max_pool3d_backward.h"
#include "aclnnop/aclnn_average_pooling_grad.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool2d_backward.h"
#include "aclnnop/aclnn_avgpool3d.h"
#include "aclnnop/aclnn_avgpool3d_backward.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool2d_with_indices_backward.h"
#include "aclnnop/aclnn_max_pool3_d.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax_backward.h"
#include "aclnnop/aclnn_max_pool_with_argmax_v3.h"
#include "aclnnop/aclnn_max_pooling_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/loss_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/pooling_op.h"

namespace npusim::aclnn {
namespace {

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kHalfAndFloat = {ACL_FLOAT, ACL_FLOAT16};  // MaxPool2dWithIndices' doc
const std::vector<aclDataType> kMaxPoolTypes = {
    ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64,
    ACL_UINT8, ACL_INT16,   ACL_INT8, ACL_UINT16};  // MaxPool's doc
const std::vector<aclDataType> kFloats64 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

#define NPUSIM_POOL(var, name, types, formula) const OpInfo var{name, ExecUnit::kVector, types, formula};
NPUSIM_POOL(kAdaptiveAvg2d, "aclnnAdaptiveAvgPool2d", kFloats, "out = mean over the adaptive HxW windows")
NPUSIM_POOL(kAdaptiveAvg3d, "aclnnAdaptiveAvgPool3d", kFloats, "out = mean over the adaptive DxHxW windows")
NPUSIM_POOL(kAdaptiveAvg2dBack, "aclnnAdaptiveAvgPool2dBackward", kFloats,
            "out = gradOutput / window size, spread")
NPUSIM_POOL(kAdaptiveAvg3dBack, "aclnnAdaptiveAvgPool3dBackward", kFloats,
            "output = gradOutput / window size, spread")
NPUSIM_POOL(kAdaptiveMax2d, "aclnnAdaptiveMaxPool2d", kFloats64,
            "out, indices = max, argmax over adaptive windows")
NPUSIM_POOL(kAdaptiveMax3d, "aclnnAdaptiveMaxPool3d", kFloats64,
            "out, indices = max, argmax over adaptive windows")
NPUSIM_POOL(kAdaptiveMax2dBack, "aclnnAdaptiveMaxPool2dBackward", kFloats64,
            "gradInput[indices] += gradOutput")
NPUSIM_POOL(kAdaptiveMax3dBack, "aclnnAdaptiveMaxPool3dBackward", kFloats64,
            "gradInput[indices] += gradOutput")
NPUSIM_POOL(kAvg2d, "aclnnAvgPool2d", kFloats, "out = window sum / divisor")
NPUSIM_POOL(kAvg3d, "aclnnAvgPool3d", kFloats, "out = window sum / divisor")
NPUSIM_POOL(kAvg2dBack, "aclnnAvgPool2dBackward", kFloats,
            "gradInput = sum of gradOutput / divisor over windows")
NPUSIM_POOL(kAvg3dBack, "aclnnAvgPool3dBackward", kFloats,
            "output = sum of gradOutput / divisor over windows")
NPUSIM_POOL(kAveragePoolingGrad, "aclnnAveragePoolingGrad", kFloats,
            "grad_input = sum of grad_output / divisor")
NPUSIM_POOL(kMax2dIdx, "aclnnMaxPool2dWithIndices", kHalfAndFloat,
            "out, indices = max, argmax over dilated windows")
NPUSIM_POOL(kMax3dArgmax, "aclnnMaxPool3dWithArgmax", kFloats,
            "out, indices = max, argmax over dilated windows")
NPUSIM_POOL(kMax2dIdxBack, "aclnnMaxPool2dWithIndicesBackward", kHalfAndFloat,
            "gradInput[indices] += gradOutput")
NPUSIM_POOL(kMax3dArgmaxBack, "aclnnMaxPool3dWithArgmaxBackward", kFloats, "gradInput[indices] += gradOutput")
NPUSIM_POOL(kMaxPool, "aclnnMaxPool", kMaxPoolTypes, "out = max over windows (pads top, left, bottom, right)")
NPUSIM_POOL(kMaxArgmaxV3, "aclnnMaxPoolWithArgmaxV3", kFloats, "y, argmax = max, argmax over dilated windows")
NPUSIM_POOL(kMaxPoolingGrad, "aclnnMaxPoolingGrad", kFloats, "dx = x == y ? dy : 0")
#undef NPUSIM_POOL
const OpRegistrar kRegistrars[] = {OpRegistrar(kAdaptiveAvg2d),
                                   OpRegistrar(kAdaptiveAvg3d),
                                   OpRegistrar(kAdaptiveAvg2dBack),
                                   OpRegistrar(kAdaptiveAvg3dBack),
                                   OpRegistrar(kAdaptiveMax2d),
                                   OpRegistrar(kAdaptiveMax3d),
                                   OpRegistrar(kAdaptiveMax2dBack),
                                   OpRegistrar(kAdaptiveMax3dBack),
                                   OpRegistrar(kAvg2d),
                                   OpRegistrar(kAvg3d),
                                   OpRegistrar(kAvg2dBack),
                                   OpRegistrar(kAvg3dBack),
                                   OpRegistrar(kAveragePoolingGrad),
                                   OpRegistrar(kMax2dIdx),
                                   OpRegistrar(kMax3dArgmax),
                                   OpRegistrar(kMax2dIdxBack),
                                   OpRegistrar(kMax3dArgmaxBack),
                                   OpRegistrar(kMaxPool),
                                   OpRegistrar(kMaxArgmaxV3),
                                   OpRegistrar(kMaxPoolingGrad)};

std::string phase1(const OpInfo& info) { return info.name + "GetWorkspaceSize"; }

// The pooled sizes of `t` (its last `dims` dims), or empty when it has too few.
std::vector<int64_t> pooledSizes(const aclTensor* t, int dims) {
  const auto& s = t->desc.shape;
  if (s.size() < static_cast<size_t>(dims)) return {};
  return std::vector<int64_t>(s.end() - dims, s.end());
}

// A regular window spec from the usual arrays: kernel required, stride defaulting to the
// kernel, symmetric padding, dilation defaulting to 1; out sizes from `shapeOf`'s pooled dims.
int32_t regularSpec(const char* api, int dims, const aclIntArray* kernel, const aclIntArray* stride,
                    const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
                    const aclTensor* shapeOf, PoolSpec* s) {
  s->dims = dims;
  s->ceilMode = ceilMode;
  int32_t st = checkNotNull(api, {{"kernelSize", kernel}});
  if (st != kSuccess) return st;
  if (kernel->values.empty()) return fail(api, kErrParamInvalid, "kernelSize must not be empty");
  if ((st = poolArray(api, "kernelSize", kernel, dims, 1, {}, &s->kernel)) != kSuccess) return st;
  if ((st = poolArray(api, "stride", stride, dims, 1, s->kernel, &s->stride)) != kSuccess) return st;
  if ((st = poolArray(api, "padding", padding, dims, 0, std::vector<int64_t>(dims, 0), &s->padBegin)) !=
      kSuccess) {
    return st;
  }
  s->padEnd = s->padBegin;
  if ((st = poolArray(api, "dilation", dilation, dims, 1, std::vector<int64_t>(dims, 1), &s->dilation)) !=
      kSuccess) {
    return st;
  }
  const std::vector<int64_t> in = pooledSizes(shapeOf, dims);
  if (in.empty()) {
    return fail(api, kErrParamInvalid, fmt::format("the input must have at least {} dimensions", dims));
  }
  return poolOutSize(api, in, s);
}

// An adaptive spec: out sizes from outputSize (forward) or gradOutput's pooled dims (backward).
int32_t adaptiveSpec(const char* api, int dims, const aclIntArray* outputSize, PoolSpec* s) {
  s->dims = dims;
  s->adaptive = true;
  int32_t st = checkNotNull(api, {{"outputSize", outputSize}});
  if (st != kSuccess) return st;
  if (outputSize->values.size() != static_cast<size_t>(dims)) {
    return fail(api, kErrParamInvalid,
                fmt::format("outputSize must have {} values, but has {}", dims, outputSize->values.size()));
  }
  for (int64_t v : outputSize->values) {
    if (v <= 0)
      return fail(api, kErrParamInvalid, fmt::format("outputSize values must be positive, not {}", v));
  }
  s->outSize = outputSize->values;
  return kSuccess;
}

int32_t adaptiveForward(const OpInfo& info, int dims, PoolMode mode, const aclTensor* self,
                        const aclIntArray* outputSize, const aclTensor* out, const aclTensor* indices,
                        const char* outName, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = phase1(info);
  rt::chargeOpPrepare(api.c_str());
  int32_t st = checkNotNull(api.c_str(), {{"self", self}, {outName, out}});
  if (st == kSuccess && mode == PoolMode::kMax) st = checkNotNull(api.c_str(), {{"indicesOut", indices}});
  if (st != kSuccess) return st;
  PoolSpec s;
  if ((st = adaptiveSpec(api.c_str(), dims, outputSize, &s)) != kSuccess) return st;
  PoolTensors t;
  t.self = self;
  t.out = out;
  t.outName = outName;
  t.indices = indices;
  t.indicesName = "indicesOut";
  return buildPool(info, api.c_str(), mode, false, s, t, fmt::format("outputSize={}", shapeString(s.outSize)),
                   ws, ex);
}

int32_t adaptiveBackward(const OpInfo& info, int dims, PoolMode mode, const aclTensor* gradOutput,
                         const aclTensor* self, const aclTensor* indices, const aclTensor* gradInput,
                         const char* gradInputName, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = phase1(info);
  rt::chargeOpPrepare(api.c_str());
  int32_t st =
      checkNotNull(api.c_str(), {{"gradOutput", gradOutput}, {"self", self}, {gradInputName, gradInput}});
  if (st == kSuccess && mode == PoolMode::kMax) st = checkNotNull(api.c_str(), {{"indices", indices}});
  if (st != kSuccess) return st;
  PoolSpec s;
  s.dims = dims;
  s.adaptive = true;
  s.outSize = pooledSizes(gradOutput, dims);
  if (s.outSize.empty()) {
    return fail(api.c_str(), kErrParamInvalid,
                fmt::format("gradOutput must have at least {} dimensions", dims));
  }
  PoolTensors t;
  t.self = self;
  t.gradOutput = gradOutput;
  t.indices = indices;
  t.gradInput = gradInput;
  t.gradInputName = gradInputName;
  return buildPool(info, api.c_str(), mode, true, s, t, "", ws, ex);
}

// The tensors of a windowed pooling on `self`: `out` is the pooled values (forward) or gradInput
// (backward, which also reads gradOutput).
PoolTensors windowTensors(bool backward, const aclTensor* self, const aclTensor* gradOutput,
                          const aclTensor* out, const char* outName) {
  PoolTensors t;
  t.self = self;
  if (backward) {
    t.gradOutput = gradOutput;
    t.gradInput = out;
    t.gradInputName = outName;
  } else {
    t.out = out;
    t.outName = outName;
  }
  return t;
}

std::string avgAttrs(const PoolSpec& s) {
  return fmt::format("kernel={}, stride={}, padding={}, ceilMode={}, countIncludePad={}, divisorOverride={}",
                     shapeString(s.kernel), shapeString(s.stride), shapeString(s.padBegin), s.ceilMode,
                     s.countIncludePad, s.divisorOverride);
}

std::string maxAttrs(const PoolSpec& s) {
  return fmt::format("kernel={}, stride={}, padding={}, dilation={}, ceilMode={}", shapeString(s.kernel),
                     shapeString(s.stride), shapeString(s.padBegin), shapeString(s.dilation), s.ceilMode);
}

int32_t avgPool(const OpInfo& info, int dims, bool backward, const aclTensor* gradOutput,
                const aclTensor* self, const aclIntArray* kernel, const aclIntArray* stride,
                const aclIntArray* padding, bool ceilMode, bool countIncludePad, int64_t divisorOverride,
                const aclTensor* out, const char* outName, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = phase1(info);
  rt::chargeOpPrepare(api.c_str());
  int32_t st = checkNotNull(api.c_str(), {{"self", self}, {outName, out}});
  if (st == kSuccess && backward) st = checkNotNull(api.c_str(), {{"gradOutput", gradOutput}});
  if (st != kSuccess) return st;
  PoolSpec s;
  s.countIncludePad = countIncludePad;
  s.divisorOverride = divisorOverride;
  if (divisorOverride < 0) {
    return fail(api.c_str(), kErrParamInvalid,
                fmt::format("divisorOverride must not be negative, not {}", divisorOverride));
  }
  if ((st = regularSpec(api.c_str(), dims, kernel, stride, padding, nullptr, ceilMode, self, &s)) !=
      kSuccess) {
    return st;
  }
  const PoolTensors t = windowTensors(backward, self, gradOutput, out, outName);
  return buildPool(info, api.c_str(), PoolMode::kAvg, backward, s, t, avgAttrs(s), ws, ex);
}

int32_t maxPoolIndexed(const OpInfo& info, int dims, bool backward, const aclTensor* gradOutput,
                       const aclTensor* self, const aclTensor* indices, const aclIntArray* kernel,
                       const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                       bool ceilMode, const aclTensor* out, const char* selfName, const char* outName,
                       const char* indicesName, uint64_t* ws, aclOpExecutor** ex) {
  const std::string api = phase1(info);
  rt::chargeOpPrepare(api.c_str());
  int32_t st = checkNotNull(api.c_str(), {{selfName, self}, {indicesName, indices}, {outName, out}});
  if (st == kSuccess && backward) st = checkNotNull(api.c_str(), {{"gradOutput", gradOutput}});
  if (st != kSuccess) return st;
  PoolSpec s;
  if ((st = regularSpec(api.c_str(), dims, kernel, stride, padding, dilation, ceilMode, self, &s)) !=
      kSuccess) {
    return st;
  }
  PoolTensors t = windowTensors(backward, self, gradOutput, out, outName);
  t.selfName = selfName;
  t.indices = indices;
  t.indicesName = indicesName;
  return buildPool(info, api.c_str(), PoolMode::kMax, backward, s, t, maxAttrs(s), ws, ex);
}

void maxPoolingGradTerm(const double* v, const LossParams&, double* o) { o[0] = v[1] == v[2] ? v[0] : 0; }
const LossDef kMaxPoolingGradDef{&kMaxPoolingGrad, maxPoolingGradTerm, 2};

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

// Entry points whose 2-D and 3-D forms differ only in the pooled dims and the OpInfo.
#define NPUSIM_ADAPTIVE_AVG_POOL(Name, info, dims)                                                           \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize, \
                                                       aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {   \
    return adaptiveForward(info, dims, PoolMode::kAvg, self, outputSize, out, nullptr, "out", ws, ex);       \
  }                                                                                                          \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_ADAPTIVE_AVG_POOL_BACKWARD(Name, info, dims)                                                \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, \
                                                       aclTensor* out, uint64_t* ws, aclOpExecutor** ex) { \
    return adaptiveBackward(info, dims, PoolMode::kAvg, gradOutput, self, nullptr, out, "out", ws, ex);    \
  }                                                                                                        \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_ADAPTIVE_MAX_POOL(Name, info, dims)                                                           \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize, \
                                                       aclTensor* outputOut, aclTensor* indicesOut,          \
                                                       uint64_t* ws, aclOpExecutor** ex) {                   \
    return adaptiveForward(info, dims, PoolMode::kMax, self, outputSize, outputOut, indicesOut, "outputOut", \
                           ws, ex);                                                                          \
  }                                                                                                          \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_ADAPTIVE_MAX_POOL_BACKWARD(Name, info, dims)                                                \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, \
                                                       const aclTensor* indices, aclTensor* gradInput,     \
                                                       uint64_t* ws, aclOpExecutor** ex) {                 \
    return adaptiveBackward(info, dims, PoolMode::kMax, gradOutput, self, indices, gradInput, "gradInput", \
                            ws, ex);                                                                       \
  }                                                                                                        \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_MAX_POOL_INDEXED(Name, info, dims)                                                           \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(                                                     \
      const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride,                      \
      const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* out,               \
      aclTensor* indices, uint64_t* ws, aclOpExecutor** ex) {                                               \
    return maxPoolIndexed(info, dims, false, nullptr, self, indices, kernelSize, stride, padding, dilation, \
                          ceilMode, out, "self", "out", "indices", ws, ex);                                 \
  }                                                                                                         \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_MAX_POOL_INDEXED_BACKWARD(Name, info, dims)                                                  \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(                                                     \
      const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices,                         \
      const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,                 \
      const aclIntArray* dilation, bool ceilMode, aclTensor* gradInput, uint64_t* ws, aclOpExecutor** ex) { \
    return maxPoolIndexed(info, dims, true, gradOutput, self, indices, kernelSize, stride, padding,         \
                          dilation, ceilMode, gradInput, "self", "gradInput", "indices", ws, ex);           \
  }                                                                                                         \
  NPUSIM_ACLNN_PHASE2(Name)

// --- adaptive ---
NPUSIM_ADAPTIVE_AVG_POOL(AdaptiveAvgPool2d, kAdaptiveAvg2d, 2)
NPUSIM_ADAPTIVE_AVG_POOL(AdaptiveAvgPool3d, kAdaptiveAvg3d, 3)
NPUSIM_ADAPTIVE_AVG_POOL_BACKWARD(AdaptiveAvgPool2dBackward, kAdaptiveAvg2dBack, 2)
NPUSIM_ADAPTIVE_AVG_POOL_BACKWARD(AdaptiveAvgPool3dBackward, kAdaptiveAvg3dBack, 3)
NPUSIM_ADAPTIVE_MAX_POOL(AdaptiveMaxPool2d, kAdaptiveMax2d, 2)
NPUSIM_ADAPTIVE_MAX_POOL(AdaptiveMaxPool3d, kAdaptiveMax3d, 3)
NPUSIM_ADAPTIVE_MAX_POOL_BACKWARD(AdaptiveMaxPool2dBackward, kAdaptiveMax2dBack, 2)
NPUSIM_ADAPTIVE_MAX_POOL_BACKWARD(AdaptiveMaxPool3dBackward, kAdaptiveMax3dBack, 3)

// --- average ---
extern "C" aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                      const aclIntArray* strides, const aclIntArray* paddings,
                                                      const bool ceilMode, const bool countIncludePad,
                                                      const int64_t divisorOverride,
                                                      const int8_t cubeMathType, aclTensor* out, uint64_t* ws,
                                                      aclOpExecutor** ex) {
  return avgPool(kAvg2d, 2, false, nullptr, self, kernelSize, strides, paddings, ceilMode, countIncludePad,
                 divisorOverride, out, "out", ws, ex);
}
NPUSIM_ACLNN_PHASE2(AvgPool2d)

extern "C" aclnnStatus aclnnAvgPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                      const aclIntArray* stride, const aclIntArray* padding,
                                                      bool ceilMode, bool countIncludePad,
                                                      int64_t divisorOverride, aclTensor* out, uint64_t* ws,
                                                      aclOpExecutor** ex) {
  return avgPool(kAvg3d, 3, false, nullptr, self, kernelSize, stride, padding, ceilMode, countIncludePad,
                 divisorOverride, out, "out", ws, ex);
}
NPUSIM_ACLNN_PHASE2(AvgPool3d)

extern "C" aclnnStatus aclnnAvgPool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, bool ceilMode, bool countIncludePad,
    int64_t divisorOverride, int8_t cubeMathType, aclTensor* gradInput, uint64_t* ws, aclOpExecutor** ex) {
  return avgPool(kAvg2dBack, 2, true, gradOutput, self, kernelSize, stride, padding, ceilMode,
                 countIncludePad, divisorOverride, gradInput, "gradInput", ws, ex);
}
NPUSIM_ACLNN_PHASE2(AvgPool2dBackward)

extern "C" aclnnStatus aclnnAvgPool3dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, bool ceilMode, bool countIncludePad,
    int64_t divisorOverride, aclTensor* output, uint64_t* ws, aclOpExecutor** ex) {
  return avgPool(kAvg3dBack, 3, true, gradOutput, self, kernelSize, stride, padding, ceilMode,
                 countIncludePad, divisorOverride, output, "output", ws, ex);
}
NPUSIM_ACLNN_PHASE2(AvgPool3dBackward)

// --- max with indices ---
NPUSIM_MAX_POOL_INDEXED(MaxPool2dWithIndices, kMax2dIdx, 2)
NPUSIM_MAX_POOL_INDEXED(MaxPool3dWithArgmax, kMax3dArgmax, 3)
NPUSIM_MAX_POOL_INDEXED_BACKWARD(MaxPool2dWithIndicesBackward, kMax2dIdxBack, 2)
NPUSIM_MAX_POOL_INDEXED_BACKWARD(MaxPool3dWithArgmaxBackward, kMax3dArgmaxBack, 3)

// The experimental V3: pads given per pooled dim as in MaxPool2dWithIndices; argmax int32/int64.
extern "C" aclnnStatus aclnnMaxPoolWithArgmaxV3GetWorkspaceSize(
    const aclTensor* x, const aclIntArray* kernelSize, const aclIntArray* strides, const aclIntArray* pads,
    const aclIntArray* dilations, bool ceilMode, const aclTensor* y, const aclTensor* argmax, uint64_t* ws,
    aclOpExecutor** ex) {
  return maxPoolIndexed(kMaxArgmaxV3, 2, false, nullptr, x, argmax, kernelSize, strides, pads, dilations,
                        ceilMode, y, "x", "y", "argmax", ws, ex);
}
NPUSIM_ACLNN_PHASE2(MaxPoolWithArgmaxV3)

// --- ONNX-style MaxPool: pads of 0, 1, 2 or 4 values (top, left, bottom, right); autoPad 0 only ---
extern "C" aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape,
                                                    const aclIntArray* strides, const int64_t autoPad,
                                                    const aclIntArray* pads, const aclIntArray* dilations,
                                                    const int64_t ceilMode, aclTensor* out, uint64_t* ws,
                                                    aclOpExecutor** ex) {
  const char* api = "aclnnMaxPoolGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"kernelShape", kernelShape}, {"out", out}});
  if (st != kSuccess) return st;
  if (autoPad != 0)
    return fail(api, kErrParamInvalid, fmt::format("autoPad must be 0 (NOTSET), not {}", autoPad));
  PoolSpec s;
  s.dims = 2;
  s.ceilMode = ceilMode != 0;
  if (kernelShape->values.empty()) return fail(api, kErrParamInvalid, "kernelShape must not be empty");
  if ((st = poolArray(api, "kernelShape", kernelShape, 2, 1, {}, &s.kernel)) != kSuccess) return st;
  if ((st = poolArray(api, "strides", strides, 2, 1, {1, 1}, &s.stride)) != kSuccess) return st;
  std::vector<int64_t> p = pads == nullptr ? std::vector<int64_t>{} : pads->values;
  if (p.size() == 4) {
    s.padBegin = {p[0], p[1]};
    s.padEnd = {p[2], p[3]};
  } else {
    if ((st = poolArray(api, "pads", pads, 2, 0, {0, 0}, &s.padBegin)) != kSuccess) return st;
    s.padEnd = s.padBegin;
  }
  for (int64_t v : p) {
    if (v < 0) return fail(api, kErrParamInvalid, fmt::format("pads must not be negative, but one is {}", v));
  }
  const aclIntArray* dil = dilations;
  aclIntArray two;
  if (dil != nullptr && dil->values.size() == 4) {  // the doc allows 4 values; only 1 is supported
    two.values = {dil->values[0], dil->values[1]};
    dil = &two;
  }
  if ((st = poolArray(api, "dilations", dil, 2, 1, {1, 1}, &s.dilation)) != kSuccess) return st;
  if (s.dilation != std::vector<int64_t>{1, 1}) return fail(api, kErrParamInvalid, "dilations must be 1");
  const std::vector<int64_t> in = pooledSizes(self, 2);
  if (in.empty()) return fail(api, kErrParamInvalid, "self must have at least 2 dimensions");
  if ((st = poolOutSize(api, in, &s)) != kSuccess) return st;
  PoolTensors t;
  t.self = self;
  t.out = out;
  return buildPool(kMaxPool, api, PoolMode::kMax, false, s, t, maxAttrs(s), ws, ex);
}
NPUSIM_ACLNN_PHASE2(MaxPool)

// --- experimental AveragePoolingGrad: the forward's input shape given as [N, C, H, W] ---
extern "C" aclnnStatus aclnnAveragePoolingGradGetWorkspaceSize(
    const aclIntArray* origInputShape, const aclTensor* gradOutput, int64_t kernelH, int64_t kernelW,
    int64_t strideH, int64_t strideW, int64_t padTop, int64_t padBottom, int64_t padLeft, int64_t padRight,
    bool ceilMode, bool countIncludePad, int64_t divisorOverride, const aclTensor* gradInput, uint64_t* ws,
    aclOpExecutor** ex) {
  const char* api = "aclnnAveragePoolingGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(
      api, {{"origInputShape", origInputShape}, {"gradOutput", gradOutput}, {"gradInput", gradInput}});
  if (st != kSuccess) return st;
  if (origInputShape->values.size() != 4) {
    return fail(api, kErrParamInvalid,
                fmt::format("origInputShape must have 4 values [N, C, H, W], but has {}",
                            origInputShape->values.size()));
  }
  if (kernelH < 1 || kernelW < 1 || strideH < 1 || strideW < 1 || padTop < 0 || padBottom < 0 ||
      padLeft < 0 || padRight < 0 || divisorOverride < 0) {
    return fail(api, kErrParamInvalid,
                "kernel and stride must be positive, padding and divisorOverride not negative");
  }
  if ((st = checkShape(api, "gradInput", gradInput->desc.shape, origInputShape->values)) != kSuccess)
    return st;
  PoolSpec s;
  s.dims = 2;
  s.kernel = {kernelH, kernelW};
  s.stride = {strideH, strideW};
  s.padBegin = {padTop, padLeft};
  s.padEnd = {padBottom, padRight};
  s.dilation = {1, 1};
  s.ceilMode = ceilMode;
  s.countIncludePad = countIncludePad;
  s.divisorOverride = divisorOverride;
  s.wholeKernelDivisor = true;  // its example's reference divides by kernelH * kernelW
  const std::vector<int64_t> in(origInputShape->values.begin() + 2, origInputShape->values.end());
  if ((st = poolOutSize(api, in, &s)) != kSuccess) return st;
  PoolTensors t;
  t.self = gradInput;  // the forward input's shape, which gradInput has
  t.selfName = "gradInput";
  t.gradOutput = gradOutput;
  t.gradInput = gradInput;
  t.gradInputName = "gradInput";
  return buildPool(kAveragePoolingGrad, api, PoolMode::kAvg, true, s, t, avgAttrs(s), ws, ex);
}
NPUSIM_ACLNN_PHASE2(AveragePoolingGrad)

extern "C" aclnnStatus aclnnMaxPoolingGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x,
                                                           const aclTensor* y, const aclTensor* dx,
                                                           uint64_t* ws, aclOpExecutor** ex) {
  LossArgs a;
  a.api = "aclnnMaxPoolingGradGetWorkspaceSize";
  a.operands = {{"dy", dy}, {"x", x}, {"y", y}};
  a.outs = {{"dx", dx}};
  a.gradient = true;
  a.sameShape = true;
  return buildLoss(kMaxPoolingGradDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(MaxPoolingGrad)

// The mask form's layout is not public (its doc calls the values a custom mask): refused with
// the reason rather than filled with guesses; the indices forms compute the same pooling.
namespace {
int32_t maskNotSupported(const char* api) {
  npusim::rt::chargeOpPrepare(api);
  return fail(api, kErrParamInvalid,
              "the mask layout of the indices is not public and is not simulated; use the WithIndices form");
}
}  // namespace

extern "C" aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(const aclTensor*, const aclIntArray*,
                                                              const aclIntArray*, const aclIntArray*,
                                                              const aclIntArray*, bool, aclTensor*,
                                                              aclTensor*, uint64_t*, aclOpExecutor**) {
  return maskNotSupported("aclnnMaxPool2dWithMaskGetWorkspaceSize");
}
NPUSIM_ACLNN_PHASE2(MaxPool2dWithMask)

extern "C" aclnnStatus aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize(const aclTensor*, const aclTensor*,
                                                                      const aclTensor*, const aclIntArray*,
                                                                      const aclIntArray*, const aclIntArray*,
                                                                      const aclIntArray*, bool, aclTensor*,
                                                                      uint64_t*, aclOpExecutor**) {
  return maskNotSupported("aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize");
}
NPUSIM_ACLNN_PHASE2(MaxPool2dWithMaskBackward)

// --- experimental MaxPool3D: TensorFlow-style arguments over NDHWC or NCDHW ---
namespace {
const OpInfo kMaxPool3D{"aclnnMaxPool3D",
                        ExecUnit::kVector,
                        {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                        "y = max over windows (padding VALID, SAME or CALCULATED)"};
const OpRegistrar kMaxPool3DRegistrar(kMaxPool3D);

// A per-dim array of 1, 3 (D, H, W) or 5 values (in the layout's order); the D, H, W ones.
int32_t spatialArray(const char* api, const char* name, const aclIntArray* a, bool channelsLast,
                     int64_t fallback, int64_t minValue, std::vector<int64_t>* out) {
  if (a == nullptr || a->values.empty()) {
    out->assign(3, fallback);
    return kSuccess;
  }
  const auto& v = a->values;
  if (v.size() == 5) {
    *out = channelsLast ? std::vector<int64_t>{v[1], v[2], v[3]} : std::vector<int64_t>{v[2], v[3], v[4]};
  } else if (v.size() == 3) {
    *out = v;
  } else if (v.size() == 1) {
    out->assign(3, v[0]);
  } else {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must have 1, 3 or 5 values, but has {}", name, v.size()));
  }
  for (int64_t e : *out) {
    if (e < minValue)
      return fail(api, kErrParamInvalid, fmt::format("{} values must be at least {}", name, minValue));
  }
  return kSuccess;
}

// `t`'s NDHWC view seen as NCDHW (the same memory, strides permuted).
aclTensor asChannelsFirst(const aclTensor* t) {
  aclTensor v = *t;
  const auto& s = t->desc.shape;
  const auto& st = t->desc.strides;
  v.desc.shape = {s[0], s[4], s[1], s[2], s[3]};
  v.desc.strides = {st[0], st[4], st[1], st[2], st[3]};
  return v;
}
}  // namespace

extern "C" aclnnStatus aclnnMaxPool3DGetWorkspaceSize(const aclTensor* x, const aclIntArray* ksize,
                                                      const aclIntArray* strides, const char* padding,
                                                      const aclIntArray* padsOptional,
                                                      const aclIntArray* dilationOptional, int64_t ceilMode,
                                                      const char* dataFormatOptional, aclTensor* out,
                                                      uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnMaxPool3DGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(
      api, {{"x", x}, {"ksize", ksize}, {"strides", strides}, {"padding", padding}, {"out", out}});
  if (st != kSuccess) return st;
  const std::string format = dataFormatOptional == nullptr ? "NDHWC" : dataFormatOptional;
  if (format != "NDHWC" && format != "NCDHW") {
    return fail(api, kErrParamInvalid, fmt::format("dataFormat must be NDHWC or NCDHW, not {}", format));
  }
  const bool last = format == "NDHWC";
  if (x->desc.rank() != 5 || out->desc.rank() != 5) {
    return fail(api, kErrParamInvalid,
                fmt::format("x and out must be 5-D, but are {} and {}", shapeString(x->desc.shape),
                            shapeString(out->desc.shape)));
  }
  PoolSpec s;
  s.dims = 3;
  s.ceilMode = ceilMode != 0;
  if ((st = spatialArray(api, "ksize", ksize, last, 1, 1, &s.kernel)) != kSuccess) return st;
  if ((st = spatialArray(api, "strides", strides, last, 1, 1, &s.stride)) != kSuccess) return st;
  if ((st = spatialArray(api, "dilation", dilationOptional, last, 1, 1, &s.dilation)) != kSuccess) return st;
  const aclTensor xv = last ? asChannelsFirst(x) : *x, ov = last ? asChannelsFirst(out) : *out;
  const std::vector<int64_t> in = pooledSizes(&xv, 3);
  const std::string mode = padding;
  s.padBegin.assign(3, 0);
  s.padEnd.assign(3, 0);
  if (mode == "CALCULATED") {
    if (padsOptional == nullptr || padsOptional->values.size() != 6) {
      return fail(api, kErrParamInvalid, "pads must hold 6 values (front, back, top, bottom, left, right)");
    }
    for (int k = 0; k < 3; ++k) {
      s.padBegin[static_cast<size_t>(k)] = padsOptional->values[static_cast<size_t>(2 * k)];
      s.padEnd[static_cast<size_t>(k)] = padsOptional->values[static_cast<size_t>(2 * k + 1)];
    }
  } else if (mode == "SAME") {  // out = ceil(in / stride), the padding split with the extra at the end
    s.ceilMode = false;
    for (size_t k = 0; k < 3; ++k) {
      const int64_t o = (in[k] + s.stride[k] - 1) / s.stride[k];
      const int64_t total =
          std::max<int64_t>(0, (o - 1) * s.stride[k] + (s.kernel[k] - 1) * s.dilation[k] + 1 - in[k]);
      s.padBegin[k] = total / 2;
      s.padEnd[k] = total - total / 2;
    }
  } else if (mode == "VALID") {
    s.ceilMode = false;
  } else {
    return fail(api, kErrParamInvalid,
                fmt::format("padding must be VALID, SAME or CALCULATED, not {}", mode));
  }
  if ((st = poolOutSize(api, in, &s)) != kSuccess) return st;
  PoolTensors t;
  t.self = &xv;
  t.selfName = "x";
  t.out = &ov;
  return buildPool(kMaxPool3D, api, PoolMode::kMax, false, s, t,
                   fmt::format("padding={}, dataFormat={}, {}", mode, format, maxAttrs(s)), ws, ex);
}
NPUSIM_ACLNN_PHASE2(MaxPool3D)
