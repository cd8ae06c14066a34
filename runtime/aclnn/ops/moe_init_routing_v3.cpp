// MoeInitRoutingV3 (ops-transformer moe/moe_init_routing_v3, docs/aclnnMoeInitRoutingV3.md): V2's
// dropless routing restricted to an active expert range [start, end), with an optional dynamic
// quantisation. The N x K choices f = i * K + j whose expert lies in the range are sorted by
// (expert, f); p is a choice's rank and available = their count.
//  expandedX[p] = x[f_p / K] for p < available (later rows 0), quantMode -1 converted to the
//    output's type; quantMode 1 per row y = x (* scale[e - start], scale [end - start, H]),
//    s = max|y| / 127, expandedX = rint(y / s) in int8, expandedScale[p] = s.
//  quantMode -1 with scale [N]: expandedScale[p] = scale[f_p / K].
//  expandedRowIdx: rowIdxType 1 (scatter) [f] = p, 0 (gather) [p] = f; entries of choices outside
//    the range (scatter) or past `available` (gather) are -1.
//  expertTokensCountOrCumsum: type 1 the count of each expert of the range ([end - start]); type 2
//    (key_value, [expertNum, 2]) the (expert, count) pairs of the experts with tokens, in order,
//    then zero rows.
// The doc's constraints: dropPadMode 0, expertTokensNumType 1 or 2, expertTokensNumFlag true,
// quantMode -1 or 1, activeNum = N * K; anything else is 161002 naming them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_moe_init_routing_v3.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kInitV3(
    {"aclnnMoeInitRoutingV3",
     ExecUnit::kVector,
     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8},
     "V2 dropless routing over an active expert range, optional dynamic int8 quantisation"});

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnMoeInitRoutingV3GetWorkspaceSize(
    const aclTensor* x, const aclTensor* expertIdx, const aclTensor* scaleOptional,
    const aclTensor* offsetOptional, int64_t activeNum, int64_t expertCapacity, int64_t expertNum,
    int64_t dropPadMode, int64_t expertTokensNumType, bool expertTokensNumFlag, int64_t quantMode,
    const aclIntArray* activeExpertRangeOptional, int64_t rowIdxType, const aclTensor* expandedXOut,
    const aclTensor* expandedRowIdxOut, const aclTensor* expertTokensCountOrCumsumOut,
    const aclTensor* expandedScaleOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMoeInitRoutingV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  (void)offsetOptional;  // the doc: not given in the supported (non-quantised, dynamic) modes
  (void)expertCapacity;  // unused in the dropless mode, as the doc says
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "expertIdx", expertIdx, {ACL_INT32}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "expandedXOut", expandedXOut, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8}, 2)) !=
      kSuccess)
    return st;
  if ((st = checkArg(api, "expandedRowIdxOut", expandedRowIdxOut, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "expertTokensCountOrCumsumOut", expertTokensCountOrCumsumOut, {ACL_INT64})) !=
      kSuccess)
    return st;
  if ((st = require(
           api,
           dropPadMode == 0 && (expertTokensNumType == 1 || expertTokensNumType == 2) &&
               expertTokensNumFlag && (quantMode == -1 || quantMode == 1) &&
               (rowIdxType == 0 || rowIdxType == 1) && activeNum >= 0 && expertNum >= 0,
           fmt::format("supported: dropPadMode 0, expertTokensNumType 1 or 2, expertTokensNumFlag true, "
                       "quantMode -1 or 1, rowIdxType 0 or 1, activeNum and expertNum >= 0 (got {}, {}, "
                       "{}, {}, {}, {}, {})",
                       dropPadMode, expertTokensNumType, expertTokensNumFlag, quantMode, rowIdxType,
                       activeNum, expertNum))) != kSuccess) {
    return st;
  }
  const int64_t N = x->desc.shape[0], H = x->desc.shape[1], K = expertIdx->desc.shape[1];
  if ((st = checkShape(api, "expertIdx", expertIdx->desc.shape, {N, K})) != kSuccess) return st;
  if ((st = require(
           api, activeNum == N * K,
           fmt::format("activeNum {} must be NUM_ROWS * K = {} (the doc's check; it is otherwise unused)",
                       activeNum, N * K))) != kSuccess) {
    return st;
  }
  int64_t start = 0, end = expertNum;
  if (activeExpertRangeOptional != nullptr) {
    const std::vector<int64_t>& r = activeExpertRangeOptional->values;
    if ((st = require(
             api, r.size() == 2 && r[0] >= 0 && r[0] < r[1] && r[1] <= expertNum,
             fmt::format("activeExpertRange must be [start, end) with 0 <= start < end <= expertNum {}",
                         expertNum))) != kSuccess) {
      return st;
    }
    start = r[0];
    end = r[1];
  }
  const bool quant = quantMode == 1;
  if ((st = require(api, !quant || (x->desc.dtype != ACL_INT8 && expandedXOut->desc.dtype == ACL_INT8),
                    "quantMode 1 takes floating x and writes int8 expandedX")) != kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "expandedXOut", expandedXOut->desc.shape, {N * K, H})) != kSuccess) return st;
  if ((st = checkShape(api, "expandedRowIdxOut", expandedRowIdxOut->desc.shape, {N * K})) != kSuccess)
    return st;
  const std::vector<int64_t> countsShape =
      expertTokensNumType == 1 ? std::vector<int64_t>{end - start} : std::vector<int64_t>{expertNum, 2};
  if ((st = checkShape(api, "expertTokensCountOrCumsumOut", expertTokensCountOrCumsumOut->desc.shape,
                       countsShape)) != kSuccess)
    return st;
  const bool withScale = scaleOptional != nullptr;
  if (withScale) {
    if ((st = checkArg(api, "scaleOptional", scaleOptional, {ACL_FLOAT})) != kSuccess) return st;
    const std::vector<int64_t> want = quant ? std::vector<int64_t>{end - start, H} : std::vector<int64_t>{N};
    if ((st = checkShape(api, "scaleOptional", scaleOptional->desc.shape, want)) != kSuccess) return st;
  }
  const bool writeScale = expandedScaleOut != nullptr && (quant || withScale);
  if (writeScale) {
    if ((st = checkArg(api, "expandedScaleOut", expandedScaleOut, {ACL_FLOAT}, 1)) != kSuccess) return st;
    if ((st = checkShape(api, "expandedScaleOut", expandedScaleOut->desc.shape, {N * K})) != kSuccess)
      return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeInitRoutingV3";
  addInput(*inst, "x", x);
  addInput(*inst, "expertIdx", expertIdx);
  if (withScale) addInput(*inst, "scale", scaleOptional);
  addOutput(*inst, "expandedXOut", expandedXOut);
  addOutput(*inst, "expandedRowIdxOut", expandedRowIdxOut);
  addOutput(*inst, "expertTokensCountOrCumsumOut", expertTokensCountOrCumsumOut);
  if (writeScale) addOutput(*inst, "expandedScaleOut", expandedScaleOut);
  inst->vectorPasses = quant ? 4 : 1;  // the gather (and the quantisation); the sort runs over the indices
  const int64_t type = expertTokensNumType, idxType = rowIdxType;
  const bool int8Out = expandedXOut->desc.dtype == ACL_INT8;
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> xv = loadDense<float>(in[0]);
    const std::vector<int64_t> experts = loadDense<int64_t>(in[1]);
    const std::vector<float> sc = withScale ? loadDense<float>(in[2]) : std::vector<float>();
    std::vector<int64_t> order;  // the active choices, sorted by (expert, f)
    for (int64_t f = 0; f < N * K; ++f) {
      if (experts[f] >= start && experts[f] < end) order.push_back(f);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return experts[a] < experts[b]; });
    const int64_t available = static_cast<int64_t>(order.size());
    std::vector<int64_t> rowIdx(static_cast<size_t>(N * K), -1), counts(static_cast<size_t>(end - start), 0);
    std::vector<double> y(static_cast<size_t>(N * K * H), 0.0);
    std::vector<float> rowScale(static_cast<size_t>(N * K), 0.0f);
    for (int64_t p = 0; p < available; ++p) {
      const int64_t f = order[p], token = f / K, e = experts[f];
      ++counts[e - start];
      rowIdx[idxType == 1 ? f : p] = idxType == 1 ? p : f;
      double m = 0;
      for (int64_t h = 0; h < H; ++h) {
        double v = xv[token * H + h];
        if (quant && withScale) v *= sc[(e - start) * H + h];
        y[p * H + h] = v;
        m = std::max(m, std::fabs(v));
      }
      if (quant) {
        const double s = m / 127.0;
        rowScale[p] = static_cast<float>(s);
        for (int64_t h = 0; h < H; ++h) {
          y[p * H + h] = s == 0 ? 0.0 : std::clamp(std::nearbyint(y[p * H + h] / s), -128.0, 127.0);
        }
      } else if (withScale) {
        rowScale[p] = sc[token];
      }
    }
    if (int8Out) {
      std::vector<int64_t> q(y.size());
      for (size_t i = 0; i < y.size(); ++i) {
        q[i] = static_cast<int64_t>(std::clamp(std::trunc(y[i]), -128.0, 127.0));  // the cast to int8
      }
      storeDense(out[0], q.data());
    } else {
      const std::vector<float> yf(y.begin(), y.end());
      storeDense(out[0], yf.data());
    }
    storeDense(out[1], rowIdx.data());
    if (type == 1) {
      storeDense(out[2], counts.data());
    } else {
      std::vector<int64_t> pairs(static_cast<size_t>(expertNum * 2), 0);
      int64_t row = 0;
      for (int64_t e = start; e < end; ++e) {
        if (counts[e - start] == 0) continue;
        pairs[row * 2] = e;
        pairs[row * 2 + 1] = counts[e - start];
        ++row;
      }
      storeDense(out[2], pairs.data());
    }
    if (writeScale) storeDense(out[3], rowScale.data());
  };
  inst->attrs = fmt::format("expertNum={} range=[{}, {}) quantMode={} rowIdxType={} expertTokensNumType={}",
                            expertNum, start, end, quantMode, rowIdxType, expertTokensNumType);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeInitRoutingV3)
