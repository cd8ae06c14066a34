// MoE token permutation (ops-transformer moe/moe_token_permute, _unpermute and their grads,
// README formulas). indices [T, topK] (or [T] for topK 1) name each token's experts; the flat
// choice f = t * topK + j goes to position S[f] of the stable argsort of the flat indices:
//  Permute:       permuted[S[f]] = tokens[f / topK] for S[f] < numOutTokens (0: all; < 0: all
//                 but that many), sortedIndices = S.
//  PermuteGrad:   out[t] = sum_j grad[S[t * topK + j]].
//  Unpermute:     out[t] = sum_j permuted[S[t * topK + j]] * probs[t, j] (probs absent: topK 1).
//  UnpermuteGrad: permutedGrad[S[f]] = grad[t] * probs[t, j],
//                 probsGrad[t, j] = <grad[t], permuted[S[f]]>.
// Positions outside the permuted rows (dropped tokens) are skipped. paddedMode is refused
// (161002): the public docs support only false.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_permute_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "aclnnop/aclnn_moe_token_unpermute_grad.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const std::initializer_list<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

const OpRegistrar kPermute({"aclnnMoeTokenPermute",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8},
                            "permuted[S[f]] = tokens[f / topK], S = rank of f in the sort by expert"});
const OpRegistrar kPermuteGrad({"aclnnMoeTokenPermuteGrad",
                                ExecUnit::kVector,
                                {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                "out[t] = sum_j grad[S[t * topK + j]]"});
const OpRegistrar kUnpermute({"aclnnMoeTokenUnpermute",
                              ExecUnit::kVector,
                              {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                              "out[t] = sum_j permuted[S[t * topK + j]] * probs[t, j]"});
const OpRegistrar kUnpermuteGrad(
    {"aclnnMoeTokenUnpermuteGrad",
     ExecUnit::kVector,
     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
     "permutedGrad[S[f]] = grad[t] * probs[t, j]; probsGrad = <grad, permuted>"});

int32_t refusePadded(const char* api, bool paddedMode) {
  return require(api, !paddedMode,
                 "paddedMode true is not supported (the public operator supports only false)");
}

// out[t] = sum_j w(t, j) * rows[S[t * topK + j]] over rows of H (w = 1 without probs).
void gatherSum(const std::vector<float>& rows, int64_t nRows, const std::vector<int64_t>& S,
               const std::vector<float>* probs, int64_t topK, int64_t H, const HostTensor& out) {
  const int64_t T = out.shape[0];
  std::vector<float> y(static_cast<size_t>(T * H), 0.0f);
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t j = 0; j < topK; ++j) {
      const int64_t f = t * topK + j, r = f < static_cast<int64_t>(S.size()) ? S[f] : -1;
      if (r < 0 || r >= nRows) continue;
      const float w = probs != nullptr ? (*probs)[f] : 1.0f;
      for (int64_t h = 0; h < H; ++h) y[t * H + h] += w * rows[r * H + h];
    }
  }
  storeDense(out, y.data());
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnMoeTokenPermuteGetWorkspaceSize(const aclTensor* tokens, const aclTensor* indices,
                                                            int64_t numOutTokens, bool paddedMode,
                                                            const aclTensor* permuteTokensOut,
                                                            const aclTensor* sortedIndicesOut,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenPermuteGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "tokens", tokens, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8}, 2)) != kSuccess)
    return st;
  if ((st = checkArg(api, "indices", indices, {ACL_INT32, ACL_INT64})) != kSuccess) return st;
  if ((st = refusePadded(api, paddedMode)) != kSuccess) return st;
  const int64_t T = tokens->desc.shape[0], H = tokens->desc.shape[1];
  if ((st = require(
           api, (indices->desc.rank() == 1 || indices->desc.rank() == 2) && indices->desc.shape[0] == T,
           fmt::format("indices {} must be [{}] or [{}, topK]", shapeString(indices->desc.shape), T, T))) !=
      kSuccess) {
    return st;
  }
  const int64_t total = indices->desc.numel();
  const int64_t kept = numOutTokens == 0  ? total
                       : numOutTokens > 0 ? std::min(numOutTokens, total)
                                          : std::max<int64_t>(total + numOutTokens, 0);
  if ((st = checkArg(api, "permuteTokensOut", permuteTokensOut, {tokens->desc.dtype})) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndicesOut", sortedIndicesOut, {ACL_INT32})) != kSuccess) return st;
  if ((st = checkShape(api, "permuteTokensOut", permuteTokensOut->desc.shape, {kept, H})) != kSuccess)
    return st;
  if ((st = checkShape(api, "sortedIndicesOut", sortedIndicesOut->desc.shape, {total})) != kSuccess)
    return st;
  const int64_t topK = T == 0 ? 1 : total / T;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenPermute";
  addInput(*inst, "tokens", tokens);
  addInput(*inst, "indices", indices);
  addOutput(*inst, "permuteTokensOut", permuteTokensOut);
  addOutput(*inst, "sortedIndicesOut", sortedIndicesOut);
  inst->vectorPasses = 1;  // the gather; the sort runs over the (small) index tensor
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<int64_t> experts = loadDense<int64_t>(in[1]);
    std::vector<int64_t> order(experts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return experts[a] < experts[b]; });
    std::vector<int64_t> S(order.size());
    std::vector<float> y(static_cast<size_t>(kept * H));
    for (size_t p = 0; p < order.size(); ++p) {
      S[order[p]] = static_cast<int64_t>(p);
      if (static_cast<int64_t>(p) < kept) {
        std::copy_n(x.begin() + order[p] / topK * H, H, y.begin() + static_cast<int64_t>(p) * H);
      }
    }
    storeDense(out[0], y.data());
    storeDense(out[1], S.data());
  };
  inst->attrs = fmt::format("numOutTokens={}", numOutTokens);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenPermuteGradGetWorkspaceSize(const aclTensor* permutedOutputGrad,
                                                                const aclTensor* sortedIndices,
                                                                int64_t numTopk, bool paddedMode,
                                                                const aclTensor* out, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenPermuteGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "permutedOutputGrad", permutedOutputGrad, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndices", sortedIndices, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "out", out, {permutedOutputGrad->desc.dtype}, 2)) != kSuccess) return st;
  if ((st = refusePadded(api, paddedMode)) != kSuccess) return st;
  if ((st = require(api, numTopk > 0, fmt::format("numTopk {} must be > 0", numTopk))) != kSuccess) return st;
  const int64_t H = permutedOutputGrad->desc.shape[1];
  const int64_t T = sortedIndices->desc.shape[0] / numTopk;
  if ((st = require(api, sortedIndices->desc.shape[0] == T * numTopk,
                    "sortedIndices must hold numTopk entries per token")) != kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "out", out->desc.shape, {T, H})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenPermuteGrad";
  addInput(*inst, "permutedOutputGrad", permutedOutputGrad);
  addInput(*inst, "sortedIndices", sortedIndices);
  addOutput(*inst, "out", out);
  inst->vectorPasses = 1;  // each permuted row is added once
  const int64_t rows = permutedOutputGrad->desc.shape[0];
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    gatherSum(loadDense<float>(in[0]), rows, loadDense<int64_t>(in[1]), nullptr, numTopk, H, o[0]);
  };
  inst->attrs = fmt::format("numTopk={}", numTopk);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteGetWorkspaceSize(const aclTensor* permutedTokens,
                                                              const aclTensor* sortedIndices,
                                                              const aclTensor* probsOptional, bool paddedMode,
                                                              const aclIntArray* restoreShapeOptional,
                                                              const aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenUnpermuteGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "permutedTokens", permutedTokens, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndices", sortedIndices, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "out", out, {permutedTokens->desc.dtype}, 2)) != kSuccess) return st;
  if ((st = refusePadded(api, paddedMode)) != kSuccess) return st;
  if ((st = require(api, restoreShapeOptional == nullptr,
                    "restoreShapeOptional must be null (as documented)")) != kSuccess) {
    return st;
  }
  const int64_t H = permutedTokens->desc.shape[1], total = sortedIndices->desc.shape[0];
  int64_t topK = 1;
  if (probsOptional != nullptr) {
    if ((st = checkArg(api, "probsOptional", probsOptional, kFloats, 2)) != kSuccess) return st;
    topK = probsOptional->desc.shape[1];
    if ((st = require(api, probsOptional->desc.numel() == total,
                      fmt::format("probs {} must have one entry per sorted index ({})",
                                  shapeString(probsOptional->desc.shape), total))) != kSuccess) {
      return st;
    }
  }
  const int64_t T = topK == 0 ? 0 : total / topK;
  if ((st = checkShape(api, "out", out->desc.shape, {T, H})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenUnpermute";
  addInput(*inst, "permutedTokens", permutedTokens);
  addInput(*inst, "sortedIndices", sortedIndices);
  const bool hasProbs = probsOptional != nullptr;
  if (hasProbs) addInput(*inst, "probsOptional", probsOptional);
  addOutput(*inst, "out", out);
  inst->vectorPasses = 2;  // each permuted row is multiplied by its prob and added once
  const int64_t rows = permutedTokens->desc.shape[0];
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> probs = hasProbs ? loadDense<float>(in[2]) : std::vector<float>();
    gatherSum(loadDense<float>(in[0]), rows, loadDense<int64_t>(in[1]), hasProbs ? &probs : nullptr, topK, H,
              o[0]);
  };
  inst->attrs = fmt::format("topK={}", topK);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteGradGetWorkspaceSize(
    const aclTensor* permutedTokens, const aclTensor* unpermutedTokensGrad, const aclTensor* sortedIndices,
    const aclTensor* probsOptional, bool paddedMode, const aclIntArray* restoreShapeOptional,
    const aclTensor* permutedTokensGradOut, const aclTensor* probsGradOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnMoeTokenUnpermuteGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "permutedTokens", permutedTokens, kFloats, 2)) != kSuccess) return st;
  const aclDataType dt = permutedTokens->desc.dtype;
  if ((st = checkArg(api, "unpermutedTokensGrad", unpermutedTokensGrad, {dt}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndices", sortedIndices, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "permutedTokensGradOut", permutedTokensGradOut, {dt})) != kSuccess) return st;
  if ((st = refusePadded(api, paddedMode)) != kSuccess) return st;
  if ((st = require(api, restoreShapeOptional == nullptr,
                    "restoreShapeOptional must be null (as documented)")) != kSuccess) {
    return st;
  }
  const int64_t T = unpermutedTokensGrad->desc.shape[0], H = unpermutedTokensGrad->desc.shape[1];
  const int64_t total = sortedIndices->desc.shape[0], topK = T == 0 ? 1 : total / T;
  if ((st = require(api, total == T * topK && permutedTokens->desc.shape[1] == H,
                    "sortedIndices must hold topK entries per token of unpermutedTokensGrad")) != kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "permutedTokensGradOut", permutedTokensGradOut->desc.shape,
                       permutedTokens->desc.shape)) != kSuccess) {
    return st;
  }
  const bool hasProbs = probsOptional != nullptr;
  if (hasProbs) {
    if ((st = checkArg(api, "probsOptional", probsOptional, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "probsOptional", probsOptional->desc.shape, {T, topK})) != kSuccess) return st;
    if ((st = checkArg(api, "probsGradOut", probsGradOut, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "probsGradOut", probsGradOut->desc.shape, {T, topK})) != kSuccess) return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeTokenUnpermuteGrad";
  addInput(*inst, "permutedTokens", permutedTokens);
  addInput(*inst, "unpermutedTokensGrad", unpermutedTokensGrad);
  addInput(*inst, "sortedIndices", sortedIndices);
  if (hasProbs) addInput(*inst, "probsOptional", probsOptional);
  addOutput(*inst, "permutedTokensGradOut", permutedTokensGradOut);
  if (hasProbs) addOutput(*inst, "probsGradOut", probsGradOut);
  inst->vectorPasses = 3;  // the scaled copy, the products and their sums
  const int64_t rows = permutedTokens->desc.shape[0];
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> permuted = loadDense<float>(in[0]), grad = loadDense<float>(in[1]);
    const std::vector<int64_t> S = loadDense<int64_t>(in[2]);
    const std::vector<float> probs = hasProbs ? loadDense<float>(in[3]) : std::vector<float>();
    std::vector<float> pg(static_cast<size_t>(rows * H), 0.0f),
        probsGrad(static_cast<size_t>(T * topK), 0.0f);
    for (int64_t t = 0; t < T; ++t) {
      for (int64_t j = 0; j < topK; ++j) {
        const int64_t f = t * topK + j, r = S[f];
        if (r < 0 || r >= rows) continue;
        const float w = hasProbs ? probs[f] : 1.0f;
        double dot = 0;
        for (int64_t h = 0; h < H; ++h) {
          pg[r * H + h] = grad[t * H + h] * w;
          dot += static_cast<double>(grad[t * H + h]) * permuted[r * H + h];
        }
        probsGrad[f] = static_cast<float>(dot);
      }
    }
    storeDense(out[0], pg.data());
    if (hasProbs) storeDense(out[1], probsGrad.data());
  };
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeTokenPermute)
NPUSIM_ACLNN_PHASE2(MoeTokenPermuteGrad)
NPUSIM_ACLNN_PHASE2(MoeTokenUnpermute)
NPUSIM_ACLNN_PHASE2(MoeTokenUnpermuteGrad)
