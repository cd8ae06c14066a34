// MoE token permutation by a routing map (ops-transformer moe/moe_token_permute_with_routing_map
// and its _grad; op_api checks and kernels of the public repository). routingMap [T, E] (int8 or
// bool) marks the experts of each token; the permuted rows go expert by expert, tokens in order
// within an expert (the masked select of the transposed map).
//  dropless (dropAndPad false): rows = numOutTokens / T * T (topK copies per token). Position p
//    holds the p-th marked (expert, token) pair: permuted[p] = tokens[t_p], permutedProbs[p] =
//    probs[t_p, e_p]. sortedIndices[f] = p of the f-th marked pair in token order (the scatter
//    form the plain MoeTokenPermute writes); entries past the marked pairs are -1.
//  drop and pad (dropAndPad true): capacity C = numOutTokens / E, rows = E * C. Expert e's slots
//    e * C .. e * C + C - 1 take its first C marked tokens, then (padding) the unmarked tokens in
//    order: sortedIndices[p] = that token, permuted[p] = tokens[sortedIndices[p]],
//    permutedProbs[p] = probs[sortedIndices[p], e] (a padding token's too: the public kernel reads
//    the transposed probs at the slot's token whatever the map says).
//  Grad (the adjoint): dropless tokensGrad[t] = sum_k grad[sortedIndices[t * topK + k]] with
//    topK = rows / tokensNum (as the public kernel); padded tokensGrad[t] = sum of grad[p] over
//    the slots with sortedIndices[p] = t. probsGrad[t, e] = the permuted probs' gradient at the
//    slot of (t, e) (dropless: the marked pairs expert by expert; padded: p = e * C + c), else 0.
#include <fmt/format.h>

#include <algorithm>

#include "aclnnop/aclnn_moe_token_permute_with_routing_map.h"
#include "aclnnop/aclnn_moe_token_permute_with_routing_map_grad.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::initializer_list<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

const OpRegistrar kPermuteMap({"aclnnMoeTokenPermuteWithRoutingMap",
                               ExecUnit::kVector,
                               {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                               "permuted[p] = tokens[t_p], (t_p, e_p) the marked pairs expert by expert"});
const OpRegistrar kPermuteMapGrad({"aclnnMoeTokenPermuteWithRoutingMapGrad",
                                   ExecUnit::kVector,
                                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                   "tokensGrad[t] = sum of the permuted rows copied from t"});

// Which token fills each permuted slot and, for the dropless form, each marked pair's slot in
// token order (`slotOfPair`). `map` is [T, E] row-major, non-zero = marked.
struct RoutingPlan {
  std::vector<int64_t> tokenOfSlot;   // rows entries; -1: no pair reaches the slot
  std::vector<int64_t> expertOfSlot;  // rows entries
  std::vector<int64_t> slotOfPair;    // dropless: rows entries in token order, -1 past the pairs
};

RoutingPlan planRouting(const std::vector<int64_t>& map, int64_t T, int64_t E, int64_t rows,
                        bool dropAndPad) {
  RoutingPlan plan;
  plan.tokenOfSlot.assign(static_cast<size_t>(rows), -1);
  plan.expertOfSlot.assign(static_cast<size_t>(rows), -1);
  if (dropAndPad) {
    const int64_t C = E == 0 ? 0 : rows / E;
    for (int64_t e = 0; e < E; ++e) {
      int64_t c = 0;
      for (int pass = 0; pass < 2; ++pass) {  // marked tokens first, then the padding ones
        for (int64_t t = 0; t < T && c < C; ++t) {
          if ((map[t * E + e] != 0) != (pass == 0)) continue;
          plan.tokenOfSlot[e * C + c] = t;
          plan.expertOfSlot[e * C + c] = e;
          ++c;
        }
      }
    }
    return plan;
  }
  std::vector<int64_t> slot(map.size(), -1);
  int64_t p = 0;
  for (int64_t e = 0; e < E; ++e) {
    for (int64_t t = 0; t < T; ++t) {
      if (map[t * E + e] == 0) continue;
      slot[t * E + e] = p;
      if (p < rows) {
        plan.tokenOfSlot[p] = t;
        plan.expertOfSlot[p] = e;
      }
      ++p;
    }
  }
  plan.slotOfPair.assign(static_cast<size_t>(rows), -1);
  int64_t f = 0;
  for (size_t i = 0; i < slot.size() && f < rows; ++i) {
    if (slot[i] >= 0) plan.slotOfPair[f++] = slot[i];
  }
  return plan;
}

// Permuted rows of a dropless or drop-and-pad layout: numOutTokens rounded down to a multiple
// of T (dropless) or E (padded), as the public op_api computes the output's first dimension.
int64_t permutedRows(int64_t numOutTokens, int64_t T, int64_t E, bool dropAndPad) {
  const int64_t align = std::max<int64_t>(dropAndPad ? E : T, 1);
  return numOutTokens / align * align;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
    const aclTensor* tokens, const aclTensor* routingMap, const aclTensor* probsOptional,
    int64_t numOutTokens, bool dropAndPad, aclTensor* permuteTokensOut, aclTensor* permuteProbsOutOptional,
    aclTensor* sortedIndicesOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "tokens", tokens, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "routingMap", routingMap, {ACL_INT8, ACL_BOOL}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "permuteTokensOut", permuteTokensOut, {tokens->desc.dtype}, 2)) != kSuccess)
    return st;
  if ((st = checkArg(api, "sortedIndicesOut", sortedIndicesOut, {ACL_INT32}, 1)) != kSuccess) return st;
  const int64_t T = tokens->desc.shape[0], H = tokens->desc.shape[1], E = routingMap->desc.shape[1];
  if ((st = checkShape(api, "routingMap", routingMap->desc.shape, {T, E})) != kSuccess) return st;
  if ((st = require(api, numOutTokens >= 0 && numOutTokens <= T * E,
                    fmt::format("numOutTokens {} must be in [0, {}]", numOutTokens, T * E))) != kSuccess) {
    return st;
  }
  const int64_t rows = permutedRows(numOutTokens, T, E, dropAndPad);
  if ((st = checkShape(api, "permuteTokensOut", permuteTokensOut->desc.shape, {rows, H})) != kSuccess)
    return st;
  if ((st = checkShape(api, "sortedIndicesOut", sortedIndicesOut->desc.shape, {rows})) != kSuccess) return st;
  const bool withProbs = probsOptional != nullptr;
  if (withProbs) {
    if ((st = checkArg(api, "permuteProbsOut", permuteProbsOutOptional, {tokens->desc.dtype}, 1)) != kSuccess)
      return st;
    if ((st = checkArg(api, "probs", probsOptional, {tokens->desc.dtype}, 2)) != kSuccess) return st;
    if ((st = checkShape(api, "probs", probsOptional->desc.shape, {T, E})) != kSuccess) return st;
    if ((st = checkShape(api, "permuteProbsOut", permuteProbsOutOptional->desc.shape, {rows})) != kSuccess)
      return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenPermuteWithRoutingMap";
  addInput(*inst, "tokens", tokens);
  addInput(*inst, "routingMap", routingMap);
  if (withProbs) addInput(*inst, "probs", probsOptional);
  addOutput(*inst, "permuteTokensOut", permuteTokensOut);
  addOutput(*inst, "sortedIndicesOut", sortedIndicesOut);
  if (withProbs) addOutput(*inst, "permuteProbsOut", permuteProbsOutOptional);
  inst->vectorPasses = 1;  // the gather; the sort runs over the (small) routing map
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<int64_t> map = loadDense<int64_t>(in[1]);
    const RoutingPlan plan = planRouting(map, T, E, rows, dropAndPad);
    std::vector<float> y(static_cast<size_t>(rows * H), 0.0f);
    for (int64_t p = 0; p < rows; ++p) {
      const int64_t t = plan.tokenOfSlot[p];
      if (t >= 0) std::copy_n(x.begin() + t * H, H, y.begin() + p * H);
    }
    storeDense(out[0], y.data());
    storeDense(out[1], dropAndPad ? plan.tokenOfSlot.data() : plan.slotOfPair.data());
    if (withProbs) {
      const std::vector<float> probs = loadDense<float>(in[2]);
      std::vector<float> py(static_cast<size_t>(rows), 0.0f);
      for (int64_t p = 0; p < rows; ++p) {
        const int64_t t = plan.tokenOfSlot[p], e = plan.expertOfSlot[p];
        if (t >= 0) py[p] = probs[t * E + e];
      }
      storeDense(out[2], py.data());
    }
  };
  inst->attrs = fmt::format("numOutTokens={} dropAndPad={}", numOutTokens, dropAndPad);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenPermuteWithRoutingMapGradGetWorkspaceSize(
    const aclTensor* permutedTokenOutputGrad, const aclTensor* permutedProbsOutputGradOptional,
    const aclTensor* sortedIndices, const aclTensor* routingMapOptional, int64_t numExperts,
    int64_t tokensNum, bool dropAndPad, aclTensor* tokensGradOut, aclTensor* probsGradOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenPermuteWithRoutingMapGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = require(api, numExperts > 0 && tokensNum > 0,
                    fmt::format("numExperts {} and tokensNum {} must be > 0", numExperts, tokensNum))) !=
      kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "permutedTokenOutputGrad", permutedTokenOutputGrad, kFloats, 2)) != kSuccess)
    return st;
  if ((st = checkArg(api, "sortedIndices", sortedIndices, {ACL_INT32}, 1)) != kSuccess) return st;
  const aclDataType dt = permutedTokenOutputGrad->desc.dtype;
  if ((st = checkArg(api, "tokensGradOut", tokensGradOut, {dt}, 2)) != kSuccess) return st;
  if (permutedProbsOutputGradOptional != nullptr && routingMapOptional == nullptr) {
    return checkNotNull(api, {{"routingMapOptional (needed with permutedProbsOutputGradOptional)", nullptr}});
  }
  const int64_t rows = permutedTokenOutputGrad->desc.shape[0], H = permutedTokenOutputGrad->desc.shape[1];
  const int64_t T = tokensNum, E = numExperts;
  if ((st = checkShape(api, "sortedIndices", sortedIndices->desc.shape, {rows})) != kSuccess) return st;
  if ((st = checkShape(api, "tokensGradOut", tokensGradOut->desc.shape, {T, H})) != kSuccess) return st;
  const int64_t align = dropAndPad ? E : T;
  if ((st = require(api, rows % align == 0,
                    fmt::format("permutedTokenOutputGrad's {} rows must be a multiple of {} ({})", rows,
                                align, dropAndPad ? "numExperts" : "tokensNum"))) != kSuccess) {
    return st;
  }
  const bool withMap = routingMapOptional != nullptr;
  const bool withProbs = permutedProbsOutputGradOptional != nullptr && probsGradOutOptional != nullptr;
  if (withMap) {
    if ((st = checkArg(api, "routingMapOptional", routingMapOptional, {ACL_INT8, ACL_BOOL}, 2)) != kSuccess)
      return st;
    if ((st = checkShape(api, "routingMapOptional", routingMapOptional->desc.shape, {T, E})) != kSuccess)
      return st;
  }
  if (withProbs) {
    if ((st = checkArg(api, "permutedProbsOutputGradOptional", permutedProbsOutputGradOptional, {dt}, 1)) !=
        kSuccess) {
      return st;
    }
    if ((st = checkShape(api, "permutedProbsOutputGradOptional", permutedProbsOutputGradOptional->desc.shape,
                         {rows})) != kSuccess) {
      return st;
    }
    if ((st = checkArg(api, "probsGradOutOptional", probsGradOutOptional, {dt}, 2)) != kSuccess) return st;
    if ((st = checkShape(api, "probsGradOutOptional", probsGradOutOptional->desc.shape, {T, E})) != kSuccess)
      return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenPermuteWithRoutingMapGrad";
  addInput(*inst, "permutedTokenOutputGrad", permutedTokenOutputGrad);
  addInput(*inst, "sortedIndices", sortedIndices);
  if (withProbs) {
    addInput(*inst, "permutedProbsOutputGrad", permutedProbsOutputGradOptional);
    addInput(*inst, "routingMap", routingMapOptional);
  }
  addOutput(*inst, "tokensGradOut", tokensGradOut);
  if (withProbs) addOutput(*inst, "probsGradOut", probsGradOutOptional);
  inst->vectorPasses = 2;  // the gather and the add of each token's copies
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> g = loadDense<float>(in[0]);
    const std::vector<int64_t> S = loadDense<int64_t>(in[1]);
    std::vector<float> dx(static_cast<size_t>(T * H), 0.0f);
    auto addRow = [&](int64_t t, int64_t p) {
      if (t < 0 || t >= T || p < 0 || p >= rows) return;  // unfilled or out-of-range entries add nothing
      for (int64_t h = 0; h < H; ++h) dx[t * H + h] += g[p * H + h];
    };
    const int64_t topK = rows / T;
    for (int64_t i = 0; i < rows; ++i) {
      if (dropAndPad) {
        addRow(S[i], i);
      } else {
        addRow(i / topK, S[i]);
      }
    }
    storeDense(out[0], dx.data());
    if (!withProbs) return;
    const std::vector<float> pg = loadDense<float>(in[2]);
    const std::vector<int64_t> map = loadDense<int64_t>(in[3]);
    std::vector<float> dp(static_cast<size_t>(T * E), 0.0f);
    if (dropAndPad) {
      const int64_t C = rows / E;
      for (int64_t p = 0; p < rows; ++p) {
        if (S[p] >= 0 && S[p] < T) dp[S[p] * E + p / C] = pg[p];
      }
    } else {
      const RoutingPlan plan = planRouting(map, T, E, rows, false);
      for (int64_t p = 0; p < rows; ++p) {
        if (plan.tokenOfSlot[p] >= 0) dp[plan.tokenOfSlot[p] * E + plan.expertOfSlot[p]] = pg[p];
      }
    }
    storeDense(out[1], dp.data());
  };
  inst->attrs = fmt::format("numExperts={} tokensNum={} dropAndPad={}", E, T, dropAndPad);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeTokenPermuteWithRoutingMap)
NPUSIM_ACLNN_PHASE2(MoeTokenPermuteWithRoutingMapGrad)
