// MoE token unpermutation by a routing map (ops-transformer moe/moe_token_unpermute_with_routing_map
// and its _grad; op_api, op definition and kernels of the public repository): the inverse of
// aclnnMoeTokenPermuteWithRoutingMap, each token the probability-weighted sum of its copies.
// permuted [rows, H]; T tokens (probs' first dimension, else restoreShape[0]); E experts.
//  dropless (paddedMode false): S = sortedIndices (the permute's scatter form), topK = rows / T,
//    w[f] = the f-th marked probability in token order (probs masked by the routing map, written
//    to permuteProbs): out[t] = sum_k permuted[S[t * topK + k]] * w[t * topK + k] (w = 1 without
//    probs). outIndex and permuteTokenId are not written (the public op_api leaves them).
//  padded (paddedMode true): S[p] = the token of slot p, capacity C = rows / E, w[p] =
//    probs[S[p], p / C]: out[t] = sum over the slots with S[p] = t of permuted[p] * w[p];
//    outIndex = the stable argsort of S, permuteTokenId = S sorted, permuteProbs = w.
//  Grad: permutedGrad[slot] = grad[t] * w and probsGrad[t, e] = <grad[t], permuted[slot]> for each
//    (token, expert, slot) the forward sums (dropless: token t's k-th marked expert and slot
//    outIndex[t * topK + k]; padded: slot outIndex[i], token permuteTokenId[i], expert slot / C).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_moe_token_unpermute_with_routing_map.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_routing_map_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::initializer_list<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::initializer_list<aclDataType> kMapTypes = {ACL_BOOL, ACL_INT8, ACL_UINT8};

const OpRegistrar kUnpermuteMap({"aclnnMoeTokenUnpermuteWithRoutingMap",
                                 ExecUnit::kVector,
                                 {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                 "out[t] = sum of t's permuted copies weighted by its marked probs"});
const OpRegistrar kUnpermuteMapGrad(
    {"aclnnMoeTokenUnpermuteWithRoutingMapGrad",
     ExecUnit::kVector,
     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
     "permutedGrad[slot] = grad[t] * w; probsGrad[t, e] = <grad[t], permuted>"});

// One term of the forward sum: token t's copy in `slot`, weighted by probs[t, expert] (expert -1:
// weight 1, no probability).
struct Term {
  int64_t token, slot, expert;
};

// The terms of the dropless form: token t's k-th marked expert (in expert order) and slot
// S[t * topK + k]; without a map the expert is -1.
std::vector<Term> droplessTerms(const std::vector<int64_t>& S, const std::vector<int64_t>* map, int64_t T,
                                int64_t E, int64_t topK) {
  std::vector<Term> terms;
  for (int64_t t = 0; t < T; ++t) {
    int64_t e = -1;
    for (int64_t k = 0; k < topK; ++k) {
      if (map != nullptr) {
        do {
          ++e;
        } while (e < E && (*map)[t * E + e] == 0);
        if (e >= E) break;  // fewer marks than topK: the rest add nothing
      }
      terms.push_back({t, S[t * topK + k], map != nullptr ? e : -1});
    }
  }
  return terms;
}

// The stable argsort of the padded form's slot tokens S: slot order by token, then by slot.
std::vector<int64_t> slotsByToken(const std::vector<int64_t>& S) {
  std::vector<int64_t> order(S.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return S[a] < S[b]; });
  return order;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
    const aclTensor* permutedTokens, const aclTensor* sortedIndices, const aclTensor* routingMapOptional,
    const aclTensor* probsOptional, bool paddedMode, const aclIntArray* restoreShapeOptional,
    aclTensor* unpermutedTokens, aclTensor* outIndex, aclTensor* permuteTokenId, aclTensor* permuteProbs,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if (probsOptional == nullptr && restoreShapeOptional == nullptr) {
    return checkNotNull(api, {{"probsOptional or restoreShapeOptional", nullptr}});
  }
  if ((st = checkArg(api, "permutedTokens", permutedTokens, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndices", sortedIndices, {ACL_INT32}, 1)) != kSuccess) return st;
  const aclDataType dt = permutedTokens->desc.dtype;
  if ((st = checkArg(api, "unpermutedTokens", unpermutedTokens, {dt}, 2)) != kSuccess) return st;
  const int64_t rows = permutedTokens->desc.shape[0], H = permutedTokens->desc.shape[1];
  if ((st = checkShape(api, "sortedIndices", sortedIndices->desc.shape, {rows})) != kSuccess) return st;
  const bool withProbs = probsOptional != nullptr;
  int64_t T = 0, E = 0;
  if (withProbs) {
    if ((st = checkArg(api, "probsOptional", probsOptional, kFloats, 2)) != kSuccess) return st;
    T = probsOptional->desc.shape[0];
    E = probsOptional->desc.shape[1];
  } else {
    const std::vector<int64_t>& rs = restoreShapeOptional->values;
    if ((st = require(api, rs.size() == 2 && rs[0] >= 0,
                      "restoreShapeOptional must be the two dimensions [tokens, hidden] of the output")) !=
        kSuccess) {
      return st;
    }
    T = rs[0];
  }
  if ((st = checkShape(api, "unpermutedTokens", unpermutedTokens->desc.shape, {T, H})) != kSuccess) return st;
  const bool withMap = routingMapOptional != nullptr;
  if (withMap) {
    if ((st = checkArg(api, "routingMapOptional", routingMapOptional, kMapTypes, 2)) != kSuccess) return st;
    if (!withProbs) E = routingMapOptional->desc.shape[1];
    if ((st = checkShape(api, "routingMapOptional", routingMapOptional->desc.shape, {T, E})) != kSuccess)
      return st;
  }
  if (withProbs && !paddedMode && !withMap) {
    return checkNotNull(api, {{"routingMapOptional (needed to select the probs)", nullptr}});
  }
  const int64_t align = paddedMode ? E : T;
  if ((st = require(api,
                    (align > 0 && rows % align == 0) || (rows == 0 && T == 0) || (paddedMode && !withProbs),
                    fmt::format("permutedTokens' {} rows must be a multiple of the {} ({})", rows,
                                paddedMode ? "experts" : "tokens", align))) != kSuccess) {
    return st;
  }
  const bool writeProbs = withProbs && permuteProbs != nullptr;
  if (writeProbs) {
    if ((st = checkArg(api, "permuteProbs", permuteProbs, {probsOptional->desc.dtype}, 1)) != kSuccess)
      return st;
    if ((st = checkShape(api, "permuteProbs", permuteProbs->desc.shape, {rows})) != kSuccess) return st;
  }
  if (paddedMode) {
    if ((st = checkArg(api, "outIndex", outIndex, {ACL_INT32}, 1)) != kSuccess) return st;
    if ((st = checkArg(api, "permuteTokenId", permuteTokenId, {ACL_INT32}, 1)) != kSuccess) return st;
    if ((st = checkShape(api, "outIndex", outIndex->desc.shape, {rows})) != kSuccess) return st;
    if ((st = checkShape(api, "permuteTokenId", permuteTokenId->desc.shape, {rows})) != kSuccess) return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenUnpermuteWithRoutingMap";
  addInput(*inst, "permutedTokens", permutedTokens);
  addInput(*inst, "sortedIndices", sortedIndices);
  if (withProbs) addInput(*inst, "probs", probsOptional);
  if (withProbs && withMap) addInput(*inst, "routingMap", routingMapOptional);
  addOutput(*inst, "unpermutedTokens", unpermutedTokens);
  if (paddedMode) {
    addOutput(*inst, "outIndex", outIndex);
    addOutput(*inst, "permuteTokenId", permuteTokenId);
  }
  if (writeProbs) addOutput(*inst, "permuteProbs", permuteProbs);
  inst->vectorPasses = 2;  // the multiply by the weights and the add of each token's copies
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<int64_t> S = loadDense<int64_t>(in[1]);
    const std::vector<float> probs = withProbs ? loadDense<float>(in[2]) : std::vector<float>();
    std::vector<float> w(static_cast<size_t>(rows), withProbs ? 0.0f : 1.0f),
        y(static_cast<size_t>(T * H), 0.0f);
    auto addCopy = [&](int64_t t, int64_t p, float weight) {
      if (t < 0 || t >= T || p < 0 || p >= rows) return;  // out-of-range entries add nothing
      for (int64_t h = 0; h < H; ++h) y[t * H + h] += weight * x[p * H + h];
    };
    size_t next = 1;
    if (paddedMode) {
      const int64_t C = withProbs && E > 0 ? rows / E : 0;
      for (int64_t p = 0; p < rows; ++p) {
        if (withProbs && S[p] >= 0 && S[p] < T) w[p] = probs[S[p] * E + p / C];
        addCopy(S[p], p, w[p]);
      }
      const std::vector<int64_t> order = slotsByToken(S);
      std::vector<int64_t> sortedTokens(order.size());
      for (size_t i = 0; i < order.size(); ++i) sortedTokens[i] = S[order[i]];
      storeDense(out[next++], order.data());
      storeDense(out[next++], sortedTokens.data());
    } else if (T > 0) {
      if (withProbs) {  // the marked probabilities in token order
        const std::vector<int64_t> map = loadDense<int64_t>(in[3]);
        int64_t f = 0;
        for (int64_t i = 0; i < T * E && f < rows; ++i) {
          if (map[i] != 0) w[f++] = probs[i];
        }
      }
      const int64_t topK = rows / T;
      for (int64_t f = 0; f < rows; ++f) addCopy(f / topK, S[f], w[f]);
    }
    storeDense(out[0], y.data());
    if (writeProbs) storeDense(out[next], w.data());
  };
  inst->attrs = fmt::format("paddedMode={}", paddedMode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize(
    const aclTensor* unpermutedTokensGrad, const aclTensor* outIndex, const aclTensor* permuteTokenId,
    const aclTensor* routingMapOptional, const aclTensor* permutedTokensOptional,
    const aclTensor* probsOptional, bool dropAndPad, const aclIntArray* restoreShapeOptional,
    const aclTensor* permutedTokensGradOut, const aclTensor* probsGradOutOptional, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenUnpermuteWithRoutingMapGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  (void)restoreShapeOptional;  // the token count is the gradient's first dimension
  int32_t st;
  if ((st = checkArg(api, "unpermutedTokensGrad", unpermutedTokensGrad, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "outIndex", outIndex, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "permuteTokenId", permuteTokenId, {ACL_INT32}, 1)) != kSuccess) return st;
  const aclDataType dt = unpermutedTokensGrad->desc.dtype;
  if ((st = checkArg(api, "permutedTokensGradOut", permutedTokensGradOut, {dt}, 2)) != kSuccess) return st;
  const int64_t T = unpermutedTokensGrad->desc.shape[0], H = unpermutedTokensGrad->desc.shape[1];
  const int64_t rows = outIndex->desc.shape[0];
  if ((st = checkShape(api, "permuteTokenId", permuteTokenId->desc.shape, {rows})) != kSuccess) return st;
  if ((st = checkShape(api, "permutedTokensGradOut", permutedTokensGradOut->desc.shape, {rows, H})) !=
      kSuccess)
    return st;
  const bool withProbs = probsOptional != nullptr;
  int64_t E = 0;
  if (withProbs) {
    if ((st = checkArg(api, "probsOptional", probsOptional, {dt}, 2)) != kSuccess) return st;
    E = probsOptional->desc.shape[1];
    if ((st = checkShape(api, "probsOptional", probsOptional->desc.shape, {T, E})) != kSuccess) return st;
    if (!dropAndPad && routingMapOptional == nullptr) {
      return checkNotNull(api, {{"routingMapOptional (needed to select the probs)", nullptr}});
    }
    if (routingMapOptional != nullptr) {
      if ((st = checkArg(api, "routingMapOptional", routingMapOptional, kMapTypes, 2)) != kSuccess) return st;
      if ((st = checkShape(api, "routingMapOptional", routingMapOptional->desc.shape, {T, E})) != kSuccess)
        return st;
    }
  }
  const bool withProbsGrad = withProbs && probsGradOutOptional != nullptr;
  if (withProbsGrad) {
    if ((st = checkArg(api, "permutedTokensOptional", permutedTokensOptional, {dt}, 2)) != kSuccess)
      return st;
    if ((st = checkShape(api, "permutedTokensOptional", permutedTokensOptional->desc.shape, {rows, H})) !=
        kSuccess)
      return st;
    if ((st = checkArg(api, "probsGradOutOptional", probsGradOutOptional, {dt}, 2)) != kSuccess) return st;
    if ((st = checkShape(api, "probsGradOutOptional", probsGradOutOptional->desc.shape, {T, E})) != kSuccess)
      return st;
  }
  const int64_t align = dropAndPad ? E : T;
  if ((st = require(api, (align > 0 && rows % align == 0) || rows == 0 || (dropAndPad && !withProbs),
                    fmt::format("outIndex's {} entries must be a multiple of the {} ({})", rows,
                                dropAndPad ? "experts" : "tokens", align))) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenUnpermuteWithRoutingMapGrad";
  addInput(*inst, "unpermutedTokensGrad", unpermutedTokensGrad);
  addInput(*inst, "outIndex", outIndex);
  addInput(*inst, "permuteTokenId", permuteTokenId);
  const bool withMap = withProbs && !dropAndPad;
  if (withProbs) addInput(*inst, "probs", probsOptional);
  if (withMap) addInput(*inst, "routingMap", routingMapOptional);
  if (withProbsGrad) addInput(*inst, "permutedTokens", permutedTokensOptional);
  addOutput(*inst, "permutedTokensGradOut", permutedTokensGradOut);
  if (withProbsGrad) addOutput(*inst, "probsGradOut", probsGradOutOptional);
  inst->vectorPasses = withProbsGrad ? 3 : 1;  // the scaled gather (and the products and sums of <grad, x>)
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> g = loadDense<float>(in[0]);
    const std::vector<int64_t> slots = loadDense<int64_t>(in[1]);
    const std::vector<int64_t> tokens = loadDense<int64_t>(in[2]);
    size_t next = 3;
    const std::vector<float> probs = withProbs ? loadDense<float>(in[next++]) : std::vector<float>();
    const std::vector<int64_t> map = withMap ? loadDense<int64_t>(in[next++]) : std::vector<int64_t>();
    const std::vector<float> x = withProbsGrad ? loadDense<float>(in[next]) : std::vector<float>();
    std::vector<Term> terms;
    if (dropAndPad) {
      const int64_t C = withProbs && E > 0 ? rows / E : 0;
      for (int64_t i = 0; i < rows; ++i)
        terms.push_back({tokens[i], slots[i], withProbs ? slots[i] / C : -1});
    } else if (T > 0) {
      terms = droplessTerms(slots, withMap ? &map : nullptr, T, E, rows / T);
    }
    std::vector<float> dx(static_cast<size_t>(rows * H), 0.0f), dp(static_cast<size_t>(T * E), 0.0f);
    for (const Term& term : terms) {
      const int64_t t = term.token, p = term.slot, e = term.expert;
      if (t < 0 || t >= T || p < 0 || p >= rows || e >= E) continue;  // out-of-range entries add nothing
      const float w = e >= 0 ? probs[t * E + e] : 1.0f;
      double dot = 0;
      for (int64_t h = 0; h < H; ++h) {
        dx[p * H + h] = g[t * H + h] * w;
        if (withProbsGrad) dot += static_cast<double>(g[t * H + h]) * x[p * H + h];
      }
      if (withProbsGrad && e >= 0) dp[t * E + e] = static_cast<float>(dot);
    }
    storeDense(out[0], dx.data());
    if (withProbsGrad) storeDense(out[1], dp.data());
  };
  inst->attrs = fmt::format("dropAndPad={}", dropAndPad);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeTokenUnpermuteWithRoutingMap)
NPUSIM_ACLNN_PHASE2(MoeTokenUnpermuteWithRoutingMapGrad)
