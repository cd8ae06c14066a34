// MoE token permutation (ops-transformer moe/moe_token_permute, _unpermute, their _with_ep forms
// and the gradients, README formulas). indices [T, topK] (or [T] for topK 1) name each token's
// experts; the flat choice f = t * topK + j goes to position S[f] of the stable argsort of the
// flat indices. The permuted tensor holds positions [r0, r0 + rows): all of them (r0 = 0,
// numOutTokens rows: 0 all, < 0 all but that many) or, in the _with_ep forms, the expert-parallel
// rank's slice `range` = [r0, r1). A position outside it (a dropped token or another rank's
// expert) is skipped.
//  Permute:       permuted[S[f] - r0] = tokens[f / topK] (WithEp: permutedProbs[S[f] - r0] =
//                 probs[f]); sortedIndices = S.
//  PermuteGrad:   tokenGrad[t] = sum_j grad[S[t * topK + j] - r0] (WithEp: probsGrad[f] =
//                 permutedProbsGrad[S[f] - r0]).
//  Unpermute:     out[t] = sum_j permuted[S[t * topK + j] - r0] * probs[t, j] (no probs: 1).
//  UnpermuteGrad: permutedGrad[S[f] - r0] = grad[t] * probs[t, j],
//                 probsGrad[t, j] = <grad[t], permuted[S[f] - r0]>.
// paddedMode true and a restoreShape are refused (161002): the public docs support only
// false / none.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_permute_grad.h"
#include "aclnnop/aclnn_moe_token_permute_with_ep.h"
#include "aclnnop/aclnn_moe_token_permute_with_ep_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "aclnnop/aclnn_moe_token_unpermute_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_ep.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_ep_grad.h"
#include "runtime/aclnn/base/arrays.h"
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
const OpRegistrar kPermuteEp({"aclnnMoeTokenPermuteWithEp",
                              ExecUnit::kVector,
                              {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                              "permuted[S[f] - r0] = tokens[f / topK] for S[f] in range"});
const OpRegistrar kPermuteGrad({"aclnnMoeTokenPermuteGrad",
                                ExecUnit::kVector,
                                {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                "out[t] = sum_j grad[S[t * topK + j]]"});
const OpRegistrar kPermuteEpGrad({"aclnnMoeTokenPermuteWithEpGrad",
                                  ExecUnit::kVector,
                                  {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                  "out[t] = sum_j grad[S[t * topK + j] - r0]"});
const OpRegistrar kUnpermute({"aclnnMoeTokenUnpermute",
                              ExecUnit::kVector,
                              {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                              "out[t] = sum_j permuted[S[t * topK + j]] * probs[t, j]"});
const OpRegistrar kUnpermuteEp({"aclnnMoeTokenUnpermuteWithEp",
                                ExecUnit::kVector,
                                {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                                "out[t] = sum_j permuted[S[t * topK + j] - r0] * probs[t, j]"});
const OpRegistrar kUnpermuteGrad(
    {"aclnnMoeTokenUnpermuteGrad",
     ExecUnit::kVector,
     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
     "permutedGrad[S[f]] = grad[t] * probs[t, j]; probsGrad = <grad, permuted>"});
const OpRegistrar kUnpermuteEpGrad(
    {"aclnnMoeTokenUnpermuteWithEpGrad",
     ExecUnit::kVector,
     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
     "permutedGrad[S[f] - r0] = grad[t] * probs[t, j]; probsGrad = <grad, permuted>"});

int32_t refusePadded(const char* api, bool paddedMode, const aclIntArray* restoreShape = nullptr) {
  int32_t st =
      require(api, !paddedMode, "paddedMode true is not supported (the public operator supports only false)");
  if (st != kSuccess) return st;
  return require(api, restoreShape == nullptr || restoreShape->values.empty(),
                 "restoreShape is not supported (the public docs support only none)");
}

// [r0, r1) of an expert-parallel range; without one (null, {0, 0} or {-1, -1}: the defaults) the
// whole of [0, total). 161002 for a malformed range.
int32_t sliceOf(const char* api, const aclIntArray* range, int64_t total, int64_t* r0, int64_t* r1) {
  *r0 = 0;
  *r1 = total;
  if (range == nullptr) return kSuccess;
  const std::vector<int64_t>& v = range->values;
  if (v.size() == 2 && v[0] == v[1] && (v[0] == 0 || v[0] == -1)) return kSuccess;
  if (v.size() != 2 || v[0] < 0 || v[1] < v[0] || v[1] > total) {
    return require(api, false, fmt::format("range must be two values 0 <= r0 <= r1 <= {}", total));
  }
  *r0 = v[0];
  *r1 = v[1];
  return kSuccess;
}

// out[t] = sum_j w(t, j) * rows[S[t * topK + j] - r0] over rows of H (w = 1 without probs).
void gatherSum(const std::vector<float>& rows, int64_t nRows, int64_t r0, const std::vector<int64_t>& S,
               const std::vector<float>* probs, int64_t topK, int64_t H, const HostTensor& out) {
  const int64_t T = out.shape[0];
  std::vector<float> y(static_cast<size_t>(T * H), 0.0f);
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t j = 0; j < topK; ++j) {
      const int64_t f = t * topK + j, r = f < static_cast<int64_t>(S.size()) ? S[f] - r0 : -1;
      if (r < 0 || r >= nRows) continue;
      const float w = probs != nullptr ? (*probs)[f] : 1.0f;
      for (int64_t h = 0; h < H; ++h) y[t * H + h] += w * rows[r * H + h];
    }
  }
  storeDense(out, y.data());
}

struct PermuteArgs {
  const aclTensor *tokens, *indices, *probs;
  int64_t numOutTokens;
  const aclIntArray* range;  // WithEp only
  bool paddedMode;
  const aclTensor *permuted, *sorted, *permutedProbs;
};

int32_t buildPermute(const char* api, const char* name, const PermuteArgs& a, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "tokens", a.tokens, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8}, 2)) != kSuccess)
    return st;
  if ((st = checkArg(api, "indices", a.indices, {ACL_INT32, ACL_INT64})) != kSuccess) return st;
  if ((st = refusePadded(api, a.paddedMode)) != kSuccess) return st;
  const int64_t T = a.tokens->desc.shape[0], H = a.tokens->desc.shape[1];
  if ((st = require(
           api, (a.indices->desc.rank() == 1 || a.indices->desc.rank() == 2) && a.indices->desc.shape[0] == T,
           fmt::format("indices {} must be [{}] or [{}, topK]", shapeString(a.indices->desc.shape), T, T))) !=
      kSuccess) {
    return st;
  }
  const int64_t total = a.indices->desc.numel();
  const int64_t kept = a.numOutTokens == 0  ? total
                       : a.numOutTokens > 0 ? std::min(a.numOutTokens, total)
                                            : std::max<int64_t>(total + a.numOutTokens, 0);
  int64_t r0 = 0, r1 = kept;
  if (a.range != nullptr && (st = sliceOf(api, a.range, total, &r0, &r1)) != kSuccess) return st;
  r1 = std::min(r1, std::max(kept, r0));
  const int64_t rows = r1 - r0;
  if ((st = checkArg(api, "permuteTokensOut", a.permuted, {a.tokens->desc.dtype})) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndicesOut", a.sorted, {ACL_INT32})) != kSuccess) return st;
  if ((st = checkShape(api, "permuteTokensOut", a.permuted->desc.shape, {rows, H})) != kSuccess) return st;
  if ((st = checkShape(api, "sortedIndicesOut", a.sorted->desc.shape, {total})) != kSuccess) return st;
  const bool withProbs = a.probs != nullptr && a.permutedProbs != nullptr;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "tokens", a.tokens);
  addInput(*inst, "indices", a.indices);
  if (withProbs) {
    if ((st = checkArg(api, "probs", a.probs, {a.tokens->desc.dtype})) != kSuccess) return st;
    if ((st = require(api, a.probs->desc.numel() == total, "probs must hold one value per choice")) !=
        kSuccess) {
      return st;
    }
    if ((st = checkArg(api, "permuteProbsOut", a.permutedProbs, {a.tokens->desc.dtype})) != kSuccess)
      return st;
    if ((st = checkShape(api, "permuteProbsOut", a.permutedProbs->desc.shape, {rows})) != kSuccess) return st;
    addInput(*inst, "probs", a.probs);
  }
  addOutput(*inst, "permuteTokensOut", a.permuted);
  addOutput(*inst, "sortedIndicesOut", a.sorted);
  if (withProbs) addOutput(*inst, "permuteProbsOut", a.permutedProbs);
  const int64_t topK = T == 0 ? 1 : total / T;
  inst->vectorPasses = 1;  // the gather; the sort runs over the (small) index tensor
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<int64_t> experts = loadDense<int64_t>(in[1]);
    const std::vector<float> probs = withProbs ? loadDense<float>(in[2]) : std::vector<float>();
    std::vector<int64_t> order(experts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t p, int64_t q) { return experts[p] < experts[q]; });
    std::vector<int64_t> S(order.size());
    std::vector<float> y(static_cast<size_t>(rows * H)), py(static_cast<size_t>(rows));
    for (size_t p = 0; p < order.size(); ++p) {
      S[order[p]] = static_cast<int64_t>(p);
      const int64_t local = static_cast<int64_t>(p) - r0;
      if (local < 0 || local >= rows) continue;
      std::copy_n(x.begin() + order[p] / topK * H, H, y.begin() + local * H);
      if (withProbs) py[local] = probs[order[p]];
    }
    storeDense(out[0], y.data());
    storeDense(out[1], S.data());
    if (withProbs) storeDense(out[2], py.data());
  };
  inst->attrs = fmt::format("numOutTokens={} range=[{}, {})", a.numOutTokens, r0, r1);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

struct PermuteGradArgs {
  const aclTensor *grad, *sorted, *probsGrad;  // probsGrad: WithEp's permuted-probs gradient
  int64_t topK;
  const aclIntArray* range;
  bool paddedMode;
  const aclTensor *tokenGrad, *probsGradOut;
};

int32_t buildPermuteGrad(const char* api, const char* name, const PermuteGradArgs& a, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "permutedOutputGrad", a.grad, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndices", a.sorted, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "out", a.tokenGrad, {a.grad->desc.dtype}, 2)) != kSuccess) return st;
  if ((st = refusePadded(api, a.paddedMode)) != kSuccess) return st;
  if ((st = require(api, a.topK > 0, fmt::format("numTopk {} must be > 0", a.topK))) != kSuccess) return st;
  const int64_t H = a.grad->desc.shape[1], total = a.sorted->desc.shape[0], T = total / a.topK;
  if ((st = require(api, total == T * a.topK, "sortedIndices must hold numTopk entries per token")) !=
      kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "out", a.tokenGrad->desc.shape, {T, H})) != kSuccess) return st;
  int64_t r0 = 0, r1 = total;
  if ((st = sliceOf(api, a.range, total, &r0, &r1)) != kSuccess) return st;
  const int64_t rows = a.grad->desc.shape[0];
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "permutedOutputGrad", a.grad);
  addInput(*inst, "sortedIndices", a.sorted);
  const bool withProbs = a.probsGrad != nullptr && a.probsGradOut != nullptr;
  if (withProbs) {
    if ((st = checkArg(api, "permutedProbsOutputGrad", a.probsGrad, {a.grad->desc.dtype}, 1)) != kSuccess)
      return st;
    if ((st = checkShape(api, "permutedProbsOutputGrad", a.probsGrad->desc.shape, {rows})) != kSuccess)
      return st;
    if ((st = checkArg(api, "probsGradOut", a.probsGradOut, {a.grad->desc.dtype})) != kSuccess) return st;
    if ((st = require(api, a.probsGradOut->desc.numel() == total,
                      "probsGradOut must hold one value per choice")) != kSuccess) {
      return st;
    }
    addInput(*inst, "permutedProbsOutputGrad", a.probsGrad);
  }
  addOutput(*inst, "out", a.tokenGrad);
  if (withProbs) addOutput(*inst, "probsGradOut", a.probsGradOut);
  inst->vectorPasses = 1;  // each permuted row is added once
  const int64_t topK = a.topK;
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<int64_t> S = loadDense<int64_t>(in[1]);
    gatherSum(loadDense<float>(in[0]), rows, r0, S, nullptr, topK, H, o[0]);
    if (!withProbs) return;
    const std::vector<float> pg = loadDense<float>(in[2]);
    std::vector<float> out(static_cast<size_t>(total), 0.0f);
    for (int64_t f = 0; f < total; ++f) {
      const int64_t r = S[f] - r0;
      if (r >= 0 && r < rows) out[f] = pg[r];
    }
    storeDense(o[1], out.data());
  };
  inst->attrs = fmt::format("numTopk={} range=[{}, {})", topK, r0, r1);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

struct UnpermuteArgs {
  const aclTensor *permuted, *sorted, *probs;
  int64_t topK;  // 0: from probs (1 without)
  const aclIntArray* range;
  bool paddedMode;
  const aclIntArray* restoreShape;
  const aclTensor* out;
};

int32_t buildUnpermute(const char* api, const char* name, const UnpermuteArgs& a, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "permutedTokens", a.permuted, kFloats, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "sortedIndices", a.sorted, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "out", a.out, {a.permuted->desc.dtype}, 2)) != kSuccess) return st;
  if ((st = refusePadded(api, a.paddedMode, a.restoreShape)) != kSuccess) return st;
  const int64_t H = a.permuted->desc.shape[1], total = a.sorted->desc.shape[0];
  int64_t topK = a.topK > 0 ? a.topK : 1;
  if (a.probs != nullptr) {
    if ((st = checkArg(api, "probsOptional", a.probs, kFloats, 2)) != kSuccess) return st;
    topK = a.probs->desc.shape[1];
    if ((st = require(api, a.probs->desc.numel() == total,
                      fmt::format("probs {} must have one entry per sorted index ({})",
                                  shapeString(a.probs->desc.shape), total))) != kSuccess) {
      return st;
    }
  }
  const int64_t T = topK == 0 ? 0 : total / topK;
  if ((st = checkShape(api, "out", a.out->desc.shape, {T, H})) != kSuccess) return st;
  int64_t r0 = 0, r1 = total;
  if ((st = sliceOf(api, a.range, total, &r0, &r1)) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "permutedTokens", a.permuted);
  addInput(*inst, "sortedIndices", a.sorted);
  const bool hasProbs = a.probs != nullptr;
  if (hasProbs) addInput(*inst, "probsOptional", a.probs);
  addOutput(*inst, "out", a.out);
  inst->vectorPasses = 2;  // each permuted row is multiplied by its prob and added once
  const int64_t rows = std::min(a.permuted->desc.shape[0], r1 - r0);
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> probs = hasProbs ? loadDense<float>(in[2]) : std::vector<float>();
    gatherSum(loadDense<float>(in[0]), rows, r0, loadDense<int64_t>(in[1]), hasProbs ? &probs : nullptr, topK,
              H, o[0]);
  };
  inst->attrs = fmt::format("topK={} range=[{}, {})", topK, r0, r1);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

struct UnpermuteGradArgs {
  const aclTensor *permuted, *grad, *sorted, *probs;
  int64_t topK;  // 0: from probs or sortedIndices / tokens
  const aclIntArray* range;
  bool paddedMode;
  const aclIntArray* restoreShape;
  const aclTensor *permutedGrad, *probsGrad;
};

int32_t buildUnpermuteGrad(const char* api, const char* name, const UnpermuteGradArgs& a,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "unpermutedTokensGrad", a.grad, kFloats, 2)) != kSuccess) return st;
  const aclDataType dt = a.grad->desc.dtype;
  if ((st = checkArg(api, "sortedIndices", a.sorted, {ACL_INT32}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "permutedTokensGradOut", a.permutedGrad, {dt}, 2)) != kSuccess) return st;
  if ((st = refusePadded(api, a.paddedMode, a.restoreShape)) != kSuccess) return st;
  const int64_t T = a.grad->desc.shape[0], H = a.grad->desc.shape[1], total = a.sorted->desc.shape[0];
  const int64_t topK = T == 0 ? 1 : total / T;
  if ((st = require(api, total == T * topK && a.permutedGrad->desc.shape[1] == H,
                    "sortedIndices must hold topK entries per token of unpermutedTokensGrad")) != kSuccess) {
    return st;
  }
  const int64_t rows = a.permutedGrad->desc.shape[0];
  const bool hasProbs = a.probs != nullptr;
  if (hasProbs) {
    if ((st = checkArg(api, "permutedTokens", a.permuted, {dt}, 2)) != kSuccess) return st;
    if ((st = checkShape(api, "permutedTokens", a.permuted->desc.shape, a.permutedGrad->desc.shape)) !=
        kSuccess) {
      return st;
    }
    if ((st = checkArg(api, "probsOptional", a.probs, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "probsOptional", a.probs->desc.shape, {T, topK})) != kSuccess) return st;
    if ((st = checkArg(api, "probsGradOut", a.probsGrad, {dt})) != kSuccess) return st;
    if ((st = checkShape(api, "probsGradOut", a.probsGrad->desc.shape, {T, topK})) != kSuccess) return st;
  }
  int64_t r0 = 0, r1 = total;
  if ((st = sliceOf(api, a.range, total, &r0, &r1)) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = name;
  addInput(*inst, "unpermutedTokensGrad", a.grad);
  addInput(*inst, "sortedIndices", a.sorted);
  if (hasProbs) {
    addInput(*inst, "permutedTokens", a.permuted);
    addInput(*inst, "probsOptional", a.probs);
  }
  addOutput(*inst, "permutedTokensGradOut", a.permutedGrad);
  if (hasProbs) addOutput(*inst, "probsGradOut", a.probsGrad);
  inst->vectorPasses = 3;  // the scaled copy, the products and their sums
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> grad = loadDense<float>(in[0]);
    const std::vector<int64_t> S = loadDense<int64_t>(in[1]);
    const std::vector<float> permuted = hasProbs ? loadDense<float>(in[2]) : std::vector<float>();
    const std::vector<float> probs = hasProbs ? loadDense<float>(in[3]) : std::vector<float>();
    std::vector<float> pg(static_cast<size_t>(rows * H), 0.0f),
        probsGrad(static_cast<size_t>(T * topK), 0.0f);
    for (int64_t f = 0; f < T * topK; ++f) {
      const int64_t t = f / topK, r = S[f] - r0;
      if (r < 0 || r >= rows || S[f] >= r1) continue;
      const float w = hasProbs ? probs[f] : 1.0f;
      double dot = 0;
      for (int64_t h = 0; h < H; ++h) {
        pg[r * H + h] = grad[t * H + h] * w;
        if (hasProbs) dot += static_cast<double>(grad[t * H + h]) * permuted[r * H + h];
      }
      probsGrad[f] = static_cast<float>(dot);
    }
    storeDense(out[0], pg.data());
    if (hasProbs) storeDense(out[1], probsGrad.data());
  };
  inst->attrs = fmt::format("range=[{}, {})", r0, r1);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
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
  return buildPermute("aclnnMoeTokenPermuteGetWorkspaceSize", "aclnnMoeTokenPermute",
                      {tokens, indices, nullptr, numOutTokens, nullptr, paddedMode, permuteTokensOut,
                       sortedIndicesOut, nullptr},
                      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenPermuteWithEpGetWorkspaceSize(
    const aclTensor* tokens, const aclTensor* indices, const aclTensor* probsOptional,
    const aclIntArray* rangeOptional, int64_t numOutTokens, bool paddedMode,
    const aclTensor* permuteTokensOut, const aclTensor* sortedIndicesOut,
    const aclTensor* permuteProbsOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildPermute("aclnnMoeTokenPermuteWithEpGetWorkspaceSize", "aclnnMoeTokenPermuteWithEp",
                      {tokens, indices, probsOptional, numOutTokens, rangeOptional, paddedMode,
                       permuteTokensOut, sortedIndicesOut, permuteProbsOutOptional},
                      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenPermuteGradGetWorkspaceSize(const aclTensor* permutedOutputGrad,
                                                                const aclTensor* sortedIndices,
                                                                int64_t numTopk, bool paddedMode,
                                                                const aclTensor* out, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  return buildPermuteGrad(
      "aclnnMoeTokenPermuteGradGetWorkspaceSize", "aclnnMoeTokenPermuteGrad",
      {permutedOutputGrad, sortedIndices, nullptr, numTopk, nullptr, paddedMode, out, nullptr}, workspaceSize,
      executor);
}

extern "C" aclnnStatus aclnnMoeTokenPermuteWithEpGradGetWorkspaceSize(
    const aclTensor* permutedTokensOutputGrad, const aclTensor* sortedIndices,
    const aclTensor* permutedProbsOutputGradOptional, int64_t numTopk, const aclIntArray* rangeOptional,
    bool paddedMode, const aclTensor* tokenGradOut, const aclTensor* probsGradOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildPermuteGrad("aclnnMoeTokenPermuteWithEpGradGetWorkspaceSize", "aclnnMoeTokenPermuteWithEpGrad",
                          {permutedTokensOutputGrad, sortedIndices, permutedProbsOutputGradOptional, numTopk,
                           rangeOptional, paddedMode, tokenGradOut, probsGradOutOptional},
                          workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteGetWorkspaceSize(const aclTensor* permutedTokens,
                                                              const aclTensor* sortedIndices,
                                                              const aclTensor* probsOptional, bool paddedMode,
                                                              const aclIntArray* restoreShapeOptional,
                                                              const aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return buildUnpermute(
      "aclnnMoeTokenUnpermuteGetWorkspaceSize", "aclnnMoeTokenUnpermute",
      {permutedTokens, sortedIndices, probsOptional, 0, nullptr, paddedMode, restoreShapeOptional, out},
      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(
    const aclTensor* permutedTokens, const aclTensor* sortedIndices, const aclTensor* probsOptional,
    int64_t numTopk, const aclIntArray* rangeOptional, bool paddedMode,
    const aclIntArray* restoreShapeOptional, const aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return buildUnpermute("aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize", "aclnnMoeTokenUnpermuteWithEp",
                        {permutedTokens, sortedIndices, probsOptional, numTopk, rangeOptional, paddedMode,
                         restoreShapeOptional, out},
                        workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteGradGetWorkspaceSize(
    const aclTensor* permutedTokens, const aclTensor* unpermutedTokensGrad, const aclTensor* sortedIndices,
    const aclTensor* probsOptional, bool paddedMode, const aclIntArray* restoreShapeOptional,
    const aclTensor* permutedTokensGradOut, const aclTensor* probsGradOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return buildUnpermuteGrad("aclnnMoeTokenUnpermuteGradGetWorkspaceSize", "aclnnMoeTokenUnpermuteGrad",
                            {permutedTokens, unpermutedTokensGrad, sortedIndices, probsOptional, 0, nullptr,
                             paddedMode, restoreShapeOptional, permutedTokensGradOut, probsGradOut},
                            workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteWithEpGradGetWorkspaceSize(
    const aclTensor* unpermutedTokensGrad, const aclTensor* sortedIndices,
    const aclTensor* permutedTokensOptional, const aclTensor* probsOptional, bool paddedMode,
    const aclIntArray* restoreShapeOptional, const aclIntArray* rangeOptional, int64_t topkNum,
    const aclTensor* permutedTokensGradOut, const aclTensor* probsGradOutOptional, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return buildUnpermuteGrad(
      "aclnnMoeTokenUnpermuteWithEpGradGetWorkspaceSize", "aclnnMoeTokenUnpermuteWithEpGrad",
      {permutedTokensOptional, unpermutedTokensGrad, sortedIndices, probsOptional, topkNum, rangeOptional,
       paddedMode, restoreShapeOptional, permutedTokensGradOut, probsGradOutOptional},
      workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeTokenPermute)
NPUSIM_ACLNN_PHASE2(MoeTokenPermuteWithEp)
NPUSIM_ACLNN_PHASE2(MoeTokenPermuteGrad)
NPUSIM_ACLNN_PHASE2(MoeTokenPermuteWithEpGrad)
NPUSIM_ACLNN_PHASE2(MoeTokenUnpermute)
NPUSIM_ACLNN_PHASE2(MoeTokenUnpermuteWithEp)
NPUSIM_ACLNN_PHASE2(MoeTokenUnpermuteGrad)
NPUSIM_ACLNN_PHASE2(MoeTokenUnpermuteWithEpGrad)
