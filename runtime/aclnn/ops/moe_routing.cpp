// MoE routing (ops-transformer moe/, README formulas):
//  InitRouting: the N x k (row, expert) choices are sorted by expert, stably by their rowIdx
//    value (k-major: j * N + i); expandedRowIdx[sortedRowIdx[p]] = p, expandedX[p] =
//    x[sortedRowIdx[p] % N], expandedExpertIdx = the sorted experts. activeNum caps the rows
//    gathered at min(N, activeNum) * k.
//  InitRoutingQuant: the same with expandedX = rint(x * scale + offset) in int8.
//  InitRoutingV2: the same over the row-major flat index (i * k + j, token = index / k); drop/pad
//    mode 1 gives every expert expertCapacity slots (expandedX [E, C, H], surplus tokens dropped
//    with expandedRowIdx -1, empty slots zero); per-expert counts (cumulative or not) and the
//    counts before the capacity cut.
//  InitRoutingQuantV2: V2 with expandedX in int8: static rint(x * scale + offset), or dynamic
//    per expanded row s = max|x * scale| / 127 (scale optional), rint(x * scale / s), s written out;
//    padding slots stay 0.
//  ComputeExpertTokens: out[e] = number of sorted experts <= e (where expert e's rows end).
//  FinalizeRouting(V2): out[i] = x1[i] + x2[i] + sum_k scales[i,k] * (expandedX[r(i,k)] +
//    bias[expert(i,k)]), r(i,k) = expandedRowIdx[i + k * N] (modes 0, 1) or [i * K + k] (2, 3);
//    rows dropped (-1) add nothing.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_moe_compute_expert_tokens.h"
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "aclnnop/aclnn_moe_finalize_routing_v2.h"
#include "aclnnop/aclnn_moe_init_routing.h"
#include "aclnnop/aclnn_moe_init_routing_quant.h"
#include "aclnnop/aclnn_moe_init_routing_quant_v2.h"
#include "aclnnop/aclnn_moe_init_routing_v2.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::initializer_list<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

const OpRegistrar kInit({"aclnnMoeInitRouting",
                         ExecUnit::kVector,
                         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32},
                         "expandedX[p] = x[sortedRowIdx[p] % N], sorted by expert"});
const OpRegistrar kInitQuant(
    {"aclnnMoeInitRoutingQuant",
     ExecUnit::kVector,
     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8},
     "expandedX[p] = rint(x[sortedRowIdx[p] % N] * scale + offset), sorted by expert"});
const OpRegistrar kInitQuantV2(
    {"aclnnMoeInitRoutingQuantV2",
     ExecUnit::kVector,
     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8},
     "MoeInitRoutingV2 with expandedX quantised to int8, static or dynamic per row"});
const OpRegistrar kInitV2({"aclnnMoeInitRoutingV2",
                           ExecUnit::kVector,
                           {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32},
                           "expandedX[p] = x[sortedIndex[p] / k], sorted by expert, optional capacity"});
const OpRegistrar kTokens(
    {"aclnnMoeComputeExpertTokens", ExecUnit::kVector, {ACL_INT32}, "out[e] = count(sortedExperts <= e)"});
const OpRegistrar kFinal({"aclnnMoeFinalizeRouting",
                          ExecUnit::kVector,
                          {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32},
                          "out = x1 + x2 + sum_k scales * (expandedX[row] + bias[expert])"});
const OpRegistrar kFinalV2({"aclnnMoeFinalizeRoutingV2",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32},
                            "out = x1 + x2 + sum_k scales * (expandedX[row] + bias[expert])"});

// Positions 0..n-1 ordered by (key, then value); `value` defaults to the position itself.
std::vector<int64_t> sortByExpert(const std::vector<int64_t>& key, const std::vector<int64_t>& value) {
  std::vector<int64_t> order(key.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return key[a] < key[b] || (key[a] == key[b] && value[a] < value[b]);
  });
  return order;
}

// Copies row `src` of x (rows of H) to row `dst` of y.
void copyRow(const std::vector<float>& x, int64_t src, std::vector<float>& y, int64_t dst, int64_t H) {
  std::copy(x.begin() + src * H, x.begin() + (src + 1) * H, y.begin() + dst * H);
}

int32_t checkRoutingInputs(const char* api, const aclTensor* x, const aclTensor* expertIdx) {
  int32_t st;
  if ((st = checkArg(api, "x", x, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "expertIdx", expertIdx, {ACL_INT32}, 2)) != kSuccess) return st;
  return require(api, expertIdx->desc.shape[0] == x->desc.shape[0],
                 fmt::format("expertIdx {} must have x's {} rows", shapeString(expertIdx->desc.shape),
                             x->desc.shape[0]));
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

namespace {

// MoeInitRouting, and MoeInitRoutingQuant when `quant`: expandedX = rint(x * scale + offset) in
// int8 (the kernel's fp16 multiply-add, here in fp32).
int32_t buildInitRoutingV1(const char* api, const char* name, const aclTensor* x, const aclTensor* rowIdx,
                           const aclTensor* expertIdx, int64_t activeNum, bool quant, double scale,
                           double offset, const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut,
                           const aclTensor* expandedExpertIdxOut, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkRoutingInputs(api, x, expertIdx)) != kSuccess) return st;
  if ((st = checkArg(api, "rowIdx", rowIdx, {ACL_INT32}, 2)) != kSuccess) return st;
  if ((st = checkShape(api, "rowIdx", rowIdx->desc.shape, expertIdx->desc.shape)) != kSuccess) return st;
  if ((st = require(api, activeNum >= 0, fmt::format("activeNum {} must be >= 0", activeNum))) != kSuccess)
    return st;
  const int64_t N = x->desc.shape[0], H = x->desc.shape[1], k = expertIdx->desc.shape[1];
  if ((st = checkArg(api, "expandedXOut", expandedXOut, {quant ? ACL_INT8 : x->desc.dtype})) != kSuccess)
    return st;
  if ((st = checkArg(api, "expandedRowIdxOut", expandedRowIdxOut, {ACL_INT32})) != kSuccess) return st;
  if ((st = checkArg(api, "expandedExpertIdxOut", expandedExpertIdxOut, {ACL_INT32})) != kSuccess) return st;
  const int64_t gathered = std::min(N, activeNum) * k;
  if ((st = checkShape(api, "expandedXOut", expandedXOut->desc.shape, {gathered, H})) != kSuccess) return st;
  if ((st = checkShape(api, "expandedRowIdxOut", expandedRowIdxOut->desc.shape, {N * k})) != kSuccess)
    return st;
  if ((st = checkShape(api, "expandedExpertIdxOut", expandedExpertIdxOut->desc.shape, {N * k})) != kSuccess)
    return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "x", x);
  addInput(*inst, "rowIdx", rowIdx);
  addInput(*inst, "expertIdx", expertIdx);
  addOutput(*inst, "expandedXOut", expandedXOut);
  addOutput(*inst, "expandedRowIdxOut", expandedRowIdxOut);
  addOutput(*inst, "expandedExpertIdxOut", expandedExpertIdxOut);
  inst->vectorPasses = 1;  // the gather; the sort runs over the (small) index tensors
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> xv = loadDense<float>(in[0]);
    const std::vector<int64_t> rows = loadDense<int64_t>(in[1]), experts = loadDense<int64_t>(in[2]);
    const std::vector<int64_t> order = sortByExpert(experts, rows);
    std::vector<int64_t> expandedRow(order.size()), sortedExpert(order.size());
    std::vector<float> y(static_cast<size_t>(gathered * H));
    for (size_t p = 0; p < order.size(); ++p) {
      const int64_t src = rows[order[p]];
      if (src >= 0 && src < static_cast<int64_t>(order.size())) expandedRow[src] = static_cast<int64_t>(p);
      sortedExpert[p] = experts[order[p]];
      if (static_cast<int64_t>(p) < gathered && N > 0) copyRow(xv, src % N, y, static_cast<int64_t>(p), H);
    }
    if (quant) {
      std::vector<int64_t> q(y.size());
      for (size_t i = 0; i < y.size(); ++i) {
        q[i] = static_cast<int64_t>(std::clamp(std::nearbyint(y[i] * scale + offset), -128.0, 127.0));
      }
      storeDense(out[0], q.data());
    } else {
      storeDense(out[0], y.data());
    }
    storeDense(out[1], expandedRow.data());
    storeDense(out[2], sortedExpert.data());
  };
  inst->attrs = quant ? fmt::format("activeNum={} scale={} offset={}", activeNum, scale, offset)
                      : fmt::format("activeNum={}", activeNum);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace

extern "C" aclnnStatus aclnnMoeInitRoutingGetWorkspaceSize(
    const aclTensor* x, const aclTensor* rowIdx, const aclTensor* expertIdx, int64_t activeNum,
    const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut, const aclTensor* expandedExpertIdxOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildInitRoutingV1("aclnnMoeInitRoutingGetWorkspaceSize", "aclnnMoeInitRouting", x, rowIdx,
                            expertIdx, activeNum, false, 1.0, 0.0, expandedXOut, expandedRowIdxOut,
                            expandedExpertIdxOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeInitRoutingQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* rowIdx, const aclTensor* expertIdx, int64_t activeNum, double scale,
    double offset, const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut,
    const aclTensor* expandedExpertIdxOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildInitRoutingV1("aclnnMoeInitRoutingQuantGetWorkspaceSize", "aclnnMoeInitRoutingQuant", x, rowIdx,
                            expertIdx, activeNum, true, scale, offset, expandedXOut, expandedRowIdxOut,
                            expandedExpertIdxOut, workspaceSize, executor);
}

namespace {

// The quantisation of MoeInitRoutingQuantV2: mode -1 none, 0 static (rint(x * scale + offset)),
// 1 dynamic (per expanded row s = max|x * scale| / 127, rint(x * scale / s), s written out).
struct RoutingQuant {
  int64_t mode = -1;
  const aclTensor *scale = nullptr, *offset = nullptr, *dynScaleOut = nullptr;
};

int32_t buildInitRoutingV2(const char* api, const char* name, const aclTensor* x, const aclTensor* expertIdx,
                           int64_t activeNum, int64_t expertCapacity, int64_t expertNum, int64_t dropPadMode,
                           int64_t expertTokensCountOrCumsumFlag, bool expertTokensBeforeCapacityFlag,
                           const RoutingQuant& rq, const aclTensor* expandedXOut,
                           const aclTensor* expandedRowIdxOut,
                           const aclTensor* expertTokensCountOrCumsumOutOptional,
                           const aclTensor* expertTokensBeforeCapacityOutOptional, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkRoutingInputs(api, x, expertIdx)) != kSuccess) return st;
  const int64_t N = x->desc.shape[0], H = x->desc.shape[1], k = expertIdx->desc.shape[1];
  if ((st = require(api, dropPadMode == 0 || dropPadMode == 1,
                    fmt::format("dropPadMode {} must be 0 (dropless) or 1 (drop/pad)", dropPadMode))) !=
      kSuccess) {
    return st;
  }
  if ((st = require(api, activeNum >= 0 && expertNum >= 0 && expertCapacity >= 0,
                    "activeNum, expertNum and expertCapacity must be >= 0")) != kSuccess) {
    return st;
  }
  if ((st = require(api, expertTokensCountOrCumsumFlag >= 0 && expertTokensCountOrCumsumFlag <= 2,
                    fmt::format("expertTokensCountOrCumsumFlag {} must be 0, 1 or 2",
                                expertTokensCountOrCumsumFlag))) != kSuccess) {
    return st;
  }
  if ((st = require(api, dropPadMode == 0 || (expertNum > 0 && expertCapacity > 0),
                    "drop/pad mode needs expertNum > 0 and expertCapacity > 0")) != kSuccess) {
    return st;
  }
  const bool quant = rq.mode >= 0;
  if ((st = require(api, rq.mode >= -1 && rq.mode <= 1,
                    fmt::format("quantMode {} must be 0 or 1", rq.mode))) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "expandedXOut", expandedXOut, {quant ? ACL_INT8 : x->desc.dtype})) != kSuccess)
    return st;
  if ((st = checkArg(api, "expandedRowIdxOut", expandedRowIdxOut, {ACL_INT32})) != kSuccess) return st;
  const int64_t gathered = activeNum > 0 ? std::min(N * k, activeNum) : N * k;
  const std::vector<int64_t> xShape = dropPadMode == 1 ? std::vector<int64_t>{expertNum, expertCapacity, H}
                                                       : std::vector<int64_t>{gathered, H};
  if ((st = checkShape(api, "expandedXOut", expandedXOut->desc.shape, xShape)) != kSuccess) return st;
  if ((st = checkShape(api, "expandedRowIdxOut", expandedRowIdxOut->desc.shape, {N * k})) != kSuccess)
    return st;
  const bool writeCounts = dropPadMode == 0 && expertTokensCountOrCumsumFlag != 0;
  const bool writeBefore = dropPadMode == 1 && expertTokensBeforeCapacityFlag;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "x", x);
  addInput(*inst, "expertIdx", expertIdx);
  if (rq.mode == 0 && (rq.scale == nullptr || rq.offset == nullptr)) {
    return fail(api, kErrParamNullptr, "static quantisation needs scaleOptional and offsetOptional");
  }
  for (auto [n, t] :
       {std::pair<const char*, const aclTensor*>{"scaleOptional", rq.scale}, {"offsetOptional", rq.offset}}) {
    if (!quant || t == nullptr) continue;
    if ((st = checkArg(api, n, t, {ACL_FLOAT})) != kSuccess) return st;
    if ((st = require(api, t->desc.numel() == 1 || t->desc.numel() == H,
                      fmt::format("{} must hold 1 or {} values", n, H))) != kSuccess) {
      return st;
    }
    addInput(*inst, n, t);
  }
  addOutput(*inst, "expandedXOut", expandedXOut);
  addOutput(*inst, "expandedRowIdxOut", expandedRowIdxOut);
  if (writeCounts || writeBefore) {
    const char* name = writeCounts ? "expertTokensCountOrCumsumOut" : "expertTokensBeforeCapacityOut";
    const aclTensor* t =
        writeCounts ? expertTokensCountOrCumsumOutOptional : expertTokensBeforeCapacityOutOptional;
    if ((st = checkArg(api, name, t, {ACL_INT32, ACL_INT64}, 1)) != kSuccess) {
      return st;
    }
    if ((st = require(api, t->desc.shape[0] >= expertNum && expertNum > 0,
                      fmt::format("{} {} must hold expertNum {} counts", name, shapeString(t->desc.shape),
                                  expertNum))) != kSuccess) {
      return st;
    }
    addOutput(*inst, name, t);
  }
  const int64_t expandedRows = dropPadMode == 1 ? expertNum * expertCapacity : gathered;
  if (rq.mode == 1) {
    if ((st = checkArg(api, "dynamicQuantScaleOutOptional", rq.dynScaleOut, {ACL_FLOAT})) != kSuccess)
      return st;
    if ((st = require(api, rq.dynScaleOut->desc.numel() == expandedRows,
                      fmt::format("dynamicQuantScaleOut must hold one scale per expanded row ({})",
                                  expandedRows))) != kSuccess) {
      return st;
    }
    addOutput(*inst, "dynamicQuantScaleOutOptional", rq.dynScaleOut);
  }
  inst->vectorPasses = quant ? 4 : 1;  // the gather (and the quantisation); the sort runs over the indices
  const int64_t flag = expertTokensCountOrCumsumFlag;
  const bool hasScale = quant && rq.scale != nullptr, hasOffset = quant && rq.offset != nullptr;
  const int64_t qmode = rq.mode;
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> xv = loadDense<float>(in[0]);
    const std::vector<int64_t> experts = loadDense<int64_t>(in[1]);
    std::vector<int64_t> flat(experts.size());
    std::iota(flat.begin(), flat.end(), 0);
    const std::vector<int64_t> order = sortByExpert(experts, flat);
    std::vector<int64_t> expandedRow(order.size(), -1),
        histogram(static_cast<size_t>(std::max<int64_t>(expertNum, 0)));
    std::vector<float> y(
        static_cast<size_t>(dropPadMode == 1 ? expertNum * expertCapacity * H : gathered * H));
    std::vector<bool> filled(static_cast<size_t>(expandedRows), false);
    int64_t slot = 0, lastExpert = -1;
    for (size_t p = 0; p < order.size(); ++p) {
      const int64_t e = experts[order[p]], token = order[p] / k;
      if (e >= 0 && e < expertNum) ++histogram[e];
      if (dropPadMode == 0) {
        expandedRow[order[p]] = static_cast<int64_t>(p);
        if (static_cast<int64_t>(p) < gathered) {
          copyRow(xv, token, y, static_cast<int64_t>(p), H);
          filled[p] = true;
        }
        continue;
      }
      slot = e == lastExpert ? slot + 1 : 0;
      lastExpert = e;
      if (e < 0 || e >= expertNum || slot >= expertCapacity) continue;  // dropped
      expandedRow[order[p]] = e * expertCapacity + slot;
      copyRow(xv, token, y, e * expertCapacity + slot, H);
      filled[e * expertCapacity + slot] = true;
    }
    if (qmode < 0) {
      storeDense(out[0], y.data());
    } else {
      const std::vector<float> sc = hasScale ? loadDense<float>(in[2]) : std::vector<float>(1, 1.0f);
      const std::vector<float> of =
          hasOffset ? loadDense<float>(in[hasScale ? 3 : 2]) : std::vector<float>(1, 0.0f);
      std::vector<int64_t> q(y.size(), 0);
      std::vector<float> rowScale(static_cast<size_t>(expandedRows), 0.0f);
      for (int64_t r = 0; r < expandedRows; ++r) {
        if (!filled[r]) continue;  // padding stays 0
        double m = 0;
        for (int64_t h = 0; h < H; ++h)
          m = std::max(m, std::fabs(double{y[r * H + h]} * sc[sc.size() == 1 ? 0 : h]));
        const double s = qmode == 1 ? m / 127.0 : 1.0;
        rowScale[r] = static_cast<float>(s);
        for (int64_t h = 0; h < H; ++h) {
          const double v = double{y[r * H + h]} * sc[sc.size() == 1 ? 0 : h];
          const double t = qmode == 1 ? (s == 0 ? 0.0 : v / s) : v + of[of.size() == 1 ? 0 : h];
          q[r * H + h] = static_cast<int64_t>(std::clamp(std::nearbyint(t), -128.0, 127.0));
        }
      }
      storeDense(out[0], q.data());
      if (qmode == 1) storeDense(out.back(), rowScale.data());
    }
    storeDense(out[1], expandedRow.data());
    if (out.size() > (qmode == 1 ? 3u : 2u)) {
      std::vector<int64_t> counts(static_cast<size_t>(out[2].numel()), 0);
      for (int64_t e = 0; e < expertNum; ++e) {
        counts[e] = histogram[e] + (writeCounts && flag == 1 && e > 0 ? counts[e - 1] : 0);
      }
      storeDense(out[2], counts.data());
    }
  };
  inst->attrs = fmt::format("activeNum={} expertCapacity={} expertNum={} dropPadMode={} quantMode={}",
                            activeNum, expertCapacity, expertNum, dropPadMode, rq.mode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace

extern "C" aclnnStatus aclnnMoeInitRoutingV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* expertIdx, int64_t activeNum, int64_t expertCapacity,
    int64_t expertNum, int64_t dropPadMode, int64_t expertTokensCountOrCumsumFlag,
    bool expertTokensBeforeCapacityFlag, const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut,
    const aclTensor* expertTokensCountOrCumsumOutOptional,
    const aclTensor* expertTokensBeforeCapacityOutOptional, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return buildInitRoutingV2("aclnnMoeInitRoutingV2GetWorkspaceSize", "aclnnMoeInitRoutingV2", x, expertIdx,
                            activeNum, expertCapacity, expertNum, dropPadMode, expertTokensCountOrCumsumFlag,
                            expertTokensBeforeCapacityFlag, RoutingQuant{}, expandedXOut, expandedRowIdxOut,
                            expertTokensCountOrCumsumOutOptional, expertTokensBeforeCapacityOutOptional,
                            workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeInitRoutingQuantV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* expertIdx, const aclTensor* scaleOptional,
    const aclTensor* offsetOptional, int64_t activeNum, int64_t expertCapacity, int64_t expertNum,
    int64_t dropPadMode, int64_t expertTokensCountOrCumsumFlag, bool expertTokensBeforeCapacityFlag,
    int64_t quantMode, const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut,
    const aclTensor* expertTokensCountOrCumsumOutOptional,
    const aclTensor* expertTokensBeforeCapacityOutOptional, const aclTensor* dynamicQuantScaleOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMoeInitRoutingQuantV2GetWorkspaceSize";
  if (quantMode != 0 && quantMode != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("quantMode {} must be 0 (static) or 1 (dynamic)", quantMode));
  }
  RoutingQuant rq;
  rq.mode = quantMode;
  rq.scale = scaleOptional;
  rq.offset = quantMode == 0 ? offsetOptional : nullptr;
  rq.dynScaleOut = dynamicQuantScaleOutOptional;
  return buildInitRoutingV2(
      api, "aclnnMoeInitRoutingQuantV2", x, expertIdx, activeNum, expertCapacity, expertNum, dropPadMode,
      expertTokensCountOrCumsumFlag, expertTokensBeforeCapacityFlag, rq, expandedXOut, expandedRowIdxOut,
      expertTokensCountOrCumsumOutOptional, expertTokensBeforeCapacityOutOptional, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeComputeExpertTokensGetWorkspaceSize(const aclTensor* sortedExperts,
                                                                   int64_t numExperts, const aclTensor* out,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
  const char* api = "aclnnMoeComputeExpertTokensGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "sortedExperts", sortedExperts, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "out", out, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = require(api, numExperts > 0, fmt::format("numExperts {} must be > 0", numExperts))) != kSuccess)
    return st;
  if ((st = checkShape(api, "out", out->desc.shape, {numExperts})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeComputeExpertTokens";
  addInput(*inst, "sortedExperts", sortedExperts);
  addOutput(*inst, "out", out);
  inst->kernel = [](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<int64_t> sorted = loadDense<int64_t>(in[0]);
    std::vector<int64_t> ends(static_cast<size_t>(o[0].numel()));
    for (size_t e = 0; e < ends.size(); ++e) {
      ends[e] = std::upper_bound(sorted.begin(), sorted.end(), static_cast<int64_t>(e)) - sorted.begin();
    }
    storeDense(o[0], ends.data());
  };
  inst->attrs = fmt::format("numExperts={}", numExperts);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

namespace npusim::aclnn {
namespace {

struct FinalizeArgs {
  const aclTensor *expandedX, *expandedRowIdx, *x1, *x2, *bias, *scales, *expertIdx, *out;
  int64_t dropPadMode;
};

int32_t buildFinalize(const char* api, const char* name, const FinalizeArgs& a, uint64_t* workspaceSize,
                      aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = require(api, a.dropPadMode >= 0 && a.dropPadMode <= 3,
                    fmt::format("dropPadMode {} must be in [0, 3]", a.dropPadMode))) != kSuccess) {
    return st;
  }
  const bool padded = a.dropPadMode == 1 || a.dropPadMode == 3;
  if ((st = checkArg(api, "expandedX", a.expandedX, kFloats, padded ? 3 : 2)) != kSuccess) return st;
  const aclDataType dt = a.expandedX->desc.dtype;
  if ((st = checkArg(api, "out", a.out, {dt}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "expandedRowIdx", a.expandedRowIdx, {ACL_INT32}, 1)) != kSuccess) return st;
  const int64_t N = a.out->desc.shape[0], H = a.out->desc.shape[1];
  if ((st = require(api, a.expandedX->desc.shape.back() == H,
                    fmt::format("expandedX {} and out {} differ in hidden size",
                                shapeString(a.expandedX->desc.shape), shapeString(a.out->desc.shape)))) !=
      kSuccess) {
    return st;
  }
  int64_t K = 1;
  if (a.scales != nullptr) {
    if ((st = checkArg(api, "scales", a.scales, kFloats, 2)) != kSuccess) return st;
    K = a.scales->desc.shape[1];
    if ((st = require(api, a.scales->desc.shape[0] == N, "scales must have out's rows")) != kSuccess)
      return st;
  } else if (a.expertIdx != nullptr && a.expertIdx->desc.rank() == 2) {
    K = a.expertIdx->desc.shape[1];
  } else if (N > 0) {
    K = a.expandedRowIdx->desc.shape[0] / N;
  }
  if ((st = checkShape(api, "expandedRowIdx", a.expandedRowIdx->desc.shape, {N * K})) != kSuccess) return st;
  for (auto [n, t] : {std::pair<const char*, const aclTensor*>{"x1", a.x1}, {"x2Optional", a.x2}}) {
    if (t == nullptr) continue;
    if ((st = checkArg(api, n, t, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, n, t->desc.shape, a.out->desc.shape)) != kSuccess) return st;
  }
  if (a.bias != nullptr) {
    if ((st = checkArg(api, "bias", a.bias, {dt}, 2)) != kSuccess) return st;
    if ((st = require(api, a.bias->desc.shape[1] == H, "bias must be [experts, H]")) != kSuccess) return st;
    if ((st = checkArg(api, "expertIdx", a.expertIdx, {ACL_INT32}, 2)) != kSuccess) return st;
    if ((st = checkShape(api, "expertIdx", a.expertIdx->desc.shape, {N, K})) != kSuccess) return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "expandedX", a.expandedX);
  addInput(*inst, "expandedRowIdx", a.expandedRowIdx);
  // Which optional inputs are present, in the order they are added after the first two.
  const bool has[5] = {a.x1 != nullptr, a.x2 != nullptr, a.bias != nullptr, a.scales != nullptr,
                       a.bias != nullptr};
  const char* names[5] = {"x1", "x2", "bias", "scales", "expertIdx"};
  const aclTensor* ts[5] = {a.x1, a.x2, a.bias, a.scales, a.expertIdx};
  for (int i = 0; i < 5; ++i) {
    if (has[i]) addInput(*inst, names[i], ts[i]);
  }
  addOutput(*inst, "out", a.out);
  inst->vectorPasses = 2;  // each expert row is multiplied by its scale and added once
  const bool colMajor = a.dropPadMode == 0 || a.dropPadMode == 1;
  const int64_t expandedRows = a.expandedX->desc.numel() / std::max<int64_t>(H, 1);
  std::vector<bool> present(has, has + 5);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> ex = loadDense<float>(in[0]);
    const std::vector<int64_t> rowIdx = loadDense<int64_t>(in[1]);
    std::vector<std::vector<float>> opt(5);
    std::vector<int64_t> experts;
    size_t next = 2;
    for (int i = 0; i < 5; ++i) {
      if (!present[i]) continue;
      if (i == 4) {
        experts = loadDense<int64_t>(in[next++]);
      } else {
        opt[i] = loadDense<float>(in[next++]);
      }
    }
    std::vector<float> y(static_cast<size_t>(N * H), 0.0f);
    for (int64_t i = 0; i < N; ++i) {
      float* o = y.data() + i * H;
      for (int64_t h = 0; h < H; ++h) {
        o[h] = (present[0] ? opt[0][i * H + h] : 0.0f) + (present[1] ? opt[1][i * H + h] : 0.0f);
      }
      for (int64_t j = 0; j < K; ++j) {
        const int64_t r = rowIdx[colMajor ? i + j * N : i * K + j];
        if (r < 0 || r >= expandedRows) continue;
        const float s = present[3] ? opt[3][i * K + j] : 1.0f;
        const int64_t e = present[4] ? experts[i * K + j] : 0;
        const float* b = present[2] ? opt[2].data() + e * H : nullptr;
        for (int64_t h = 0; h < H; ++h) o[h] += s * (ex[r * H + h] + (b != nullptr ? b[h] : 0.0f));
      }
    }
    storeDense(out[0], y.data());
  };
  inst->attrs = fmt::format("dropPadMode={}", a.dropPadMode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMoeFinalizeRoutingGetWorkspaceSize(
    const aclTensor* expandedX, const aclTensor* x1, const aclTensor* x2Optional, const aclTensor* bias,
    const aclTensor* scales, const aclTensor* expandedRowIdx, const aclTensor* expandedExpertIdx,
    const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMoeFinalizeRoutingGetWorkspaceSize";
  int32_t st = checkNotNull(
      api, {{"x1", x1}, {"bias", bias}, {"scales", scales}, {"expandedExpertIdx", expandedExpertIdx}});
  if (st != kSuccess) return st;
  return buildFinalize(api, "aclnnMoeFinalizeRouting",
                       {expandedX, expandedRowIdx, x1, x2Optional, bias, scales, expandedExpertIdx, out, 0},
                       workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeFinalizeRoutingV2GetWorkspaceSize(
    const aclTensor* expandedX, const aclTensor* expandedRowIdx, const aclTensor* x1Optional,
    const aclTensor* x2Optional, const aclTensor* biasOptional, const aclTensor* scalesOptional,
    const aclTensor* expertIdxOptional, int64_t dropPadMode, const aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return buildFinalize("aclnnMoeFinalizeRoutingV2GetWorkspaceSize", "aclnnMoeFinalizeRoutingV2",
                       {expandedX, expandedRowIdx, x1Optional, x2Optional, biasOptional, scalesOptional,
                        expertIdxOptional, out, dropPadMode},
                       workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeInitRouting)
NPUSIM_ACLNN_PHASE2(MoeInitRoutingQuant)
NPUSIM_ACLNN_PHASE2(MoeInitRoutingV2)
NPUSIM_ACLNN_PHASE2(MoeInitRoutingQuantV2)
NPUSIM_ACLNN_PHASE2(MoeComputeExpertTokens)
NPUSIM_ACLNN_PHASE2(MoeFinalizeRouting)
NPUSIM_ACLNN_PHASE2(MoeFinalizeRoutingV2)
