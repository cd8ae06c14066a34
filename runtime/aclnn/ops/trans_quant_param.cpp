// The quantisation parameter the cube's fixpipe reads (ops-nn quant/trans_quant_param and
// trans_quant_param_v2 docs): a float scale and optional offset packed into 64 bits,
//   out = (bits(scale) & 0xFFFFE000) | 1 << 46                (V3 roundMode 1: bits rounded to
//                                                              their upper 19 bits first)
//   out = (out & 0x4000FFFFFFFF) | (clamp(round(offset), -256, 255) & 0x1FF) << 37   with an offset.
// aclnnTransQuantParam is the host function (a malloc'ed array the caller frees); V2 and V3 are
// device operators writing a uint64 / int64 tensor.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "aclnnop/aclnn_trans_quant_param.h"
#include "aclnnop/aclnn_trans_quant_param_v2.h"
#include "aclnnop/aclnn_trans_quant_param_v3.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kV2({"aclnnTransQuantParamV2",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_UINT64, ACL_INT64},
                       "out = (bits(scale) & 0xFFFFE000) | 1 << 46 | offset9 << 37"});
const OpRegistrar kV3({"aclnnTransQuantParamV3",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_UINT64, ACL_INT64},
                       "out = (round19(bits(scale)) & 0xFFFFE000) | 1 << 46 | offset9 << 37"});

uint64_t packParam(float scale, bool hasOffset, float offset, bool roundScale) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  if (roundScale) bits = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{bits} + 0x1000u, 0xFFFFFFFFu));
  uint64_t out = (uint64_t{bits} & 0xFFFFE000u) | (uint64_t{1} << 46);
  if (hasOffset) {
    const int64_t o = std::clamp<int64_t>(static_cast<int64_t>(std::round(offset)), -256, 255);
    out = (out & 0x4000FFFFFFFFull) | ((static_cast<uint64_t>(o) & 0x1FFu) << 37);
  }
  return out;
}

int32_t buildTrans(const char* api, const char* name, const aclTensor* scale, const aclTensor* offset,
                   bool roundScale, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "scale", scale, {ACL_FLOAT})) != kSuccess) return st;
  if ((st = checkArg(api, "out", out, {ACL_UINT64, ACL_INT64})) != kSuccess) return st;
  const int64_t n = std::max(scale->desc.numel(), offset != nullptr ? offset->desc.numel() : int64_t{0});
  if (offset != nullptr) {
    if ((st = checkArg(api, "offset", offset, {ACL_FLOAT})) != kSuccess) return st;
    if ((st = require(api, offset->desc.numel() == 1 || offset->desc.numel() == n,
                      "offset must hold 1 value or as many as scale")) != kSuccess) {
      return st;
    }
  }
  if ((st = require(api, scale->desc.numel() == 1 || scale->desc.numel() == n,
                    "scale must hold 1 value or as many as offset")) != kSuccess) {
    return st;
  }
  if ((st = require(api, out->desc.numel() == n, fmt::format("out must hold {} values", n))) != kSuccess)
    return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "scale", scale);
  const bool hasOffset = offset != nullptr;
  if (hasOffset) addInput(*inst, "offset", offset);
  addOutput(*inst, "out", out);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> sc = loadDense<float>(in[0]);
    const std::vector<float> off = hasOffset ? loadDense<float>(in[1]) : std::vector<float>();
    std::vector<int64_t> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const float s = sc[sc.size() == 1 ? 0 : i];
      const float f = hasOffset ? off[off.size() == 1 ? 0 : i] : 0.0f;
      v[i] = static_cast<int64_t>(packParam(s, hasOffset, f, roundScale));
    }
    storeDense(o[0], v.data());
  };
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleSize,
                                            const float* offsetArray, uint64_t offsetSize,
                                            uint64_t** quantParam, uint64_t* quantParamSize) {
  const char* api = "aclnnTransQuantParam";
  int32_t st = checkNotNull(
      api, {{"scaleArray", scaleArray}, {"quantParam", quantParam}, {"quantParamSize", quantParamSize}});
  if (st != kSuccess) return st;
  const uint64_t n = std::max(scaleSize, offsetArray != nullptr ? offsetSize : 0);
  if (scaleSize == 0 || (scaleSize != 1 && scaleSize != n) ||
      (offsetArray != nullptr && offsetSize != 1 && offsetSize != n)) {
    return fail(api, kErrParamInvalid,
                fmt::format("scaleSize {} and offsetSize {} must be 1 or equal", scaleSize, offsetSize));
  }
  auto* out = static_cast<uint64_t*>(std::malloc(n * sizeof(uint64_t)));
  if (out == nullptr) return fail(api, kErrParamInvalid, "out of host memory");
  for (uint64_t i = 0; i < n; ++i) {
    const float s = scaleArray[scaleSize == 1 ? 0 : i];
    const bool hasOffset = offsetArray != nullptr && offsetSize > 0;
    out[i] = packParam(s, hasOffset, hasOffset ? offsetArray[offsetSize == 1 ? 0 : i] : 0.0f, false);
  }
  *quantParam = out;
  *quantParamSize = n;
  return kSuccess;
}

extern "C" aclnnStatus aclnnTransQuantParamV2GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                              const aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return buildTrans("aclnnTransQuantParamV2GetWorkspaceSize", "aclnnTransQuantParamV2", scale, offset, false,
                    out, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnTransQuantParamV3GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                              int64_t roundMode, const aclTensor* out,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  const char* api = "aclnnTransQuantParamV3GetWorkspaceSize";
  if (roundMode != 0 && roundMode != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("roundMode {} must be 0 (truncate) or 1 (round)", roundMode));
  }
  return buildTrans(api, "aclnnTransQuantParamV3", scale, offset, roundMode == 1, out, workspaceSize,
                    executor);
}

NPUSIM_ACLNN_PHASE2(TransQuantParamV2)
NPUSIM_ACLNN_PHASE2(TransQuantParamV3)
