// Gradients of the V2 routing (ops-transformer moe/moe_init_routing_v2_grad and
// moe_finalize_routing_v2_grad, README formulas), over the row-major flat choice i = t * K + k
// and r = expandedRowIdx[i] (rows −1 or past the expanded rows are dropped and skipped):
//  InitRoutingV2Grad:     gradX[t] = sum_k gradExpandedX[r(t * K + k)].
//  FinalizeRoutingV2Grad: gradExpandedX[r(i)] = gradY[i / K] (* scales[i]);
//                         gradScales[i] = <gradY[i / K], expandedX[r(i)] (+ bias[expertIdx[i]])>;
//                         rows no choice reaches (drop/pad slots) are zero.
#include <fmt/format.h>

#include <algorithm>

#include "aclnnop/aclnn_moe_finalize_routing_v2_grad.h"
#include "aclnnop/aclnn_moe_init_routing_v2_grad.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kInitGrad({"aclnnMoeInitRoutingV2Grad",
                             ExecUnit::kVector,
                             {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                             "gradX[t] = sum_k gradExpandedX[expandedRowIdx[t * K + k]]"});
const OpRegistrar kFinalGrad({"aclnnMoeFinalizeRoutingV2Grad",
                              ExecUnit::kVector,
                              {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                              "gradExpandedX[r] = gradY * scale; gradScales = <gradY, expandedX[r] + bias>"});

int32_t checkMode(const char* api, int64_t dropPadMode, int64_t activeNum) {
  return require(api, (dropPadMode == 0 || dropPadMode == 1) && activeNum >= 0,
                 fmt::format("dropPadMode {} must be 0 or 1 and activeNum {} >= 0", dropPadMode, activeNum));
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnMoeInitRoutingV2GradGetWorkspaceSize(
    const aclTensor* gradExpandedX, const aclTensor* expandedRowIdx, int64_t topK, int64_t dropPadMode,
    int64_t activeNum, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMoeInitRoutingV2GradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  const std::initializer_list<aclDataType> floats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  if ((st = checkArg(api, "gradExpandedX", gradExpandedX, floats)) != kSuccess) return st;
  if ((st = checkArg(api, "expandedRowIdx", expandedRowIdx, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "out", out, {gradExpandedX->desc.dtype}, 2)) != kSuccess) return st;
  if ((st = checkMode(api, dropPadMode, activeNum)) != kSuccess) return st;
  const size_t rank = gradExpandedX->desc.rank();
  if ((st = require(api, rank == (dropPadMode == 1 ? 3u : 2u),
                    fmt::format("gradExpandedX must be {} in dropPadMode {}",
                                dropPadMode == 1 ? "[E, C, H]" : "[rows, H]", dropPadMode))) != kSuccess) {
    return st;
  }
  const int64_t H = gradExpandedX->desc.shape.back(), total = expandedRowIdx->desc.shape[0];
  if ((st = require(api, topK > 0 && total % topK == 0,
                    fmt::format("topK {} must be > 0 and divide expandedRowIdx's {} entries", topK,
                                total))) != kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "out", out->desc.shape, {total / topK, H})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeInitRoutingV2Grad";
  addInput(*inst, "gradExpandedX", gradExpandedX);
  addInput(*inst, "expandedRowIdx", expandedRowIdx);
  addOutput(*inst, "out", out);
  const int64_t rows = gradExpandedX->desc.numel() / std::max<int64_t>(H, 1);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> g = loadDense<float>(in[0]);
    const std::vector<int64_t> idx = loadDense<int64_t>(in[1]);
    const int64_t T = o[0].shape[0];
    std::vector<float> y(static_cast<size_t>(T * H), 0.0f);
    for (int64_t i = 0; i < T * topK; ++i) {
      const int64_t r = idx[i];
      if (r < 0 || r >= rows) continue;
      for (int64_t h = 0; h < H; ++h) y[i / topK * H + h] += g[r * H + h];
    }
    storeDense(o[0], y.data());
  };
  inst->attrs = fmt::format("topK={} dropPadMode={} activeNum={}", topK, dropPadMode, activeNum);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeFinalizeRoutingV2GradGetWorkspaceSize(
    const aclTensor* gradY, const aclTensor* expandedRowIdx, const aclTensor* expandedXOptional,
    const aclTensor* scalesOptional, const aclTensor* expertIdxOptional, const aclTensor* biasOptional,
    int64_t dropPadMode, int64_t activeNum, int64_t expertNum, int64_t expertCapacity,
    const aclTensor* gradExpandedXOut, const aclTensor* gradScalesOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnMoeFinalizeRoutingV2GradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  const std::initializer_list<aclDataType> floats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  if ((st = checkArg(api, "gradY", gradY, floats, 2)) != kSuccess) return st;
  const aclDataType dt = gradY->desc.dtype;
  const int64_t R = gradY->desc.shape[0], H = gradY->desc.shape[1];
  if ((st = checkArg(api, "expandedRowIdx", expandedRowIdx, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkMode(api, dropPadMode, activeNum)) != kSuccess) return st;
  if ((st = require(api, dropPadMode == 0 || (expertNum > 0 && expertCapacity > 0),
                    "dropPadMode 1 needs expertNum and expertCapacity > 0")) != kSuccess) {
    return st;
  }
  const int64_t total = expandedRowIdx->desc.shape[0];
  if ((st = require(api, R > 0 && total % R == 0, "expandedRowIdx must hold K entries per row of gradY")) !=
      kSuccess) {
    return st;
  }
  const int64_t K = total / R;
  const std::vector<int64_t> gxShape = dropPadMode == 1 ? std::vector<int64_t>{expertNum, expertCapacity, H}
                                       : activeNum > 0  ? std::vector<int64_t>{std::min(activeNum, total), H}
                                                        : std::vector<int64_t>{total, H};
  if ((st = checkArg(api, "gradExpandedXOut", gradExpandedXOut, {dt})) != kSuccess) return st;
  if ((st = checkShape(api, "gradExpandedXOut", gradExpandedXOut->desc.shape, gxShape)) != kSuccess)
    return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeFinalizeRoutingV2Grad";
  addInput(*inst, "gradY", gradY);
  addInput(*inst, "expandedRowIdx", expandedRowIdx);
  const bool hasScales = scalesOptional != nullptr, hasBias = biasOptional != nullptr;
  if (hasScales) {
    if ((st = checkArg(api, "expandedXOptional", expandedXOptional, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "expandedXOptional", expandedXOptional->desc.shape, gxShape)) != kSuccess)
      return st;
    if ((st = checkArg(api, "scalesOptional", scalesOptional, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "scalesOptional", scalesOptional->desc.shape, {R, K})) != kSuccess) return st;
    if ((st = checkArg(api, "gradScalesOut", gradScalesOut, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "gradScalesOut", gradScalesOut->desc.shape, {R, K})) != kSuccess) return st;
    addInput(*inst, "expandedXOptional", expandedXOptional);
    addInput(*inst, "scalesOptional", scalesOptional);
    if (hasBias) {
      if ((st = checkArg(api, "biasOptional", biasOptional, {dt}, 2)) != kSuccess) return st;
      if ((st = require(api, biasOptional->desc.shape[1] == H, "biasOptional must be [E, H]")) != kSuccess)
        return st;
      if ((st = checkArg(api, "expertIdxOptional", expertIdxOptional, {ACL_INT32})) != kSuccess) return st;
      if ((st = checkShape(api, "expertIdxOptional", expertIdxOptional->desc.shape, {R, K})) != kSuccess)
        return st;
      addInput(*inst, "biasOptional", biasOptional);
      addInput(*inst, "expertIdxOptional", expertIdxOptional);
    }
  } else if (hasBias) {
    return require(api, false, "biasOptional needs scalesOptional");
  }
  addOutput(*inst, "gradExpandedXOut", gradExpandedXOut);
  if (hasScales) addOutput(*inst, "gradScalesOut", gradScalesOut);
  inst->vectorPasses = hasScales ? 3 : 1;  // the scaled copy, then the products and their sum
  const int64_t rows = gradExpandedXOut->desc.numel() / std::max<int64_t>(H, 1);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> gy = loadDense<float>(in[0]);
    const std::vector<int64_t> idx = loadDense<int64_t>(in[1]);
    const std::vector<float> ex = hasScales ? loadDense<float>(in[2]) : std::vector<float>();
    const std::vector<float> sc = hasScales ? loadDense<float>(in[3]) : std::vector<float>();
    const std::vector<float> bias = hasBias ? loadDense<float>(in[4]) : std::vector<float>();
    const std::vector<int64_t> experts = hasBias ? loadDense<int64_t>(in[5]) : std::vector<int64_t>();
    std::vector<float> gx(static_cast<size_t>(rows * H), 0.0f), gs(static_cast<size_t>(R * K), 0.0f);
    for (int64_t i = 0; i < R * K; ++i) {
      const int64_t r = idx[i];
      if (r < 0 || r >= rows) continue;
      const float* g = gy.data() + i / K * H;
      const float s = hasScales ? sc[i] : 1.0f;
      const float* b = hasBias ? bias.data() + experts[i] * H : nullptr;
      double dot = 0;
      for (int64_t h = 0; h < H; ++h) {
        gx[r * H + h] = g[h] * s;
        if (hasScales) dot += static_cast<double>(g[h]) * (ex[r * H + h] + (b != nullptr ? b[h] : 0.0f));
      }
      gs[i] = static_cast<float>(dot);
    }
    storeDense(out[0], gx.data());
    if (hasScales) storeDense(out[1], gs.data());
  };
  inst->attrs = fmt::format("dropPadMode={} activeNum={}", dropPadMode, activeNum);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeInitRoutingV2Grad)
NPUSIM_ACLNN_PHASE2(MoeFinalizeRoutingV2Grad)
