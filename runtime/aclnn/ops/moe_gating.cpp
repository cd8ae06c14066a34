// MoE gating (ops-transformer moe/moe_gating_top_k_softmax and _v2, README formulas):
//   softmax over the last dimension (the E experts) of every row of x, then the k largest
//   probabilities in descending order (ties: the lower expert first) and their expert indices.
//   V1 also writes rowIdx[i][j] = j * rows + i (the k-major position of copy j of row i);
//   V2 with renorm = 1 takes the top k of x first and the softmax over those k values, and can
//   write the whole softmax (fp32). A row whose `finished` flag is set gets expert index E.
// MoeGatingTopK (moe/moe_gating_top_k doc and kernel): norm = sigmoid (normType 1) or softmax
//   (0) of x; the experts, split into groupCount groups, are chosen by norm + bias: the kGroup
//   groups with the largest max (groupSelectMode 0) or sum of their top 2 (1), then the k best
//   experts in those groups; y = norm[chosen] / (sum + eps) * routedScalingFactor (the bias
//   only selects, as the kernel gathers y from the unbiased norm); out = norm (fp32).
// x fp16/bf16/fp32 (computed in fp32); indices int32.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_moe_gating_top_k.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax_v2.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfoV1{"aclnnMoeGatingTopKSoftmax",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                     "y, expertIdx = topk(softmax(x), k); rowIdx[i][j] = j * rows + i"};
const OpInfo kInfoV2{"aclnnMoeGatingTopKSoftmaxV2",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                     "renorm 0: topk(softmax(x)); renorm 1: softmax(topk(x))"};
const OpInfo kInfoGroup{"aclnnMoeGatingTopK",
                        ExecUnit::kVector,
                        {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                        "y, expertIdx = topk over the kGroup best groups of norm(x) + bias, renormalised"};
const OpRegistrar kRegistrarGroup(kInfoGroup);
const OpRegistrar kRegistrarV1(kInfoV1);
const OpRegistrar kRegistrarV2(kInfoV2);

void softmaxInPlace(float* v, int64_t n) {
  const float m = *std::max_element(v, v + n);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += (v[i] = std::exp(v[i] - m));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(v[i] / sum);
}

// Indices of the k largest of v[0, n): descending value, lower index first among equals.
std::vector<int64_t> topK(const float* v, int64_t n, int64_t k) {
  std::vector<int64_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                    [v](int64_t a, int64_t b) { return v[a] > v[b] || (v[a] == v[b] && a < b); });
  idx.resize(static_cast<size_t>(k));
  return idx;
}

struct GatingArgs {
  int64_t k = 0;
  int64_t renorm = 0;
  bool hasFinished = false;
  bool writeSoftmax = false;
  bool writeRowIdx = false;
};

// in: x [, finished]; out: y, expertIdx [, rowIdx or softmax].
void gatingKernel(const GatingArgs& a, const std::vector<HostTensor>& in,
                  const std::vector<HostTensor>& out) {
  std::vector<float> x = loadDense<float>(in[0]);
  const int64_t E = in[0].shape.back(), rows = E == 0 ? 0 : in[0].numel() / E, k = a.k;
  const std::vector<int64_t> finished = a.hasFinished ? loadDense<int64_t>(in[1]) : std::vector<int64_t>();
  std::vector<float> y(static_cast<size_t>(rows * k));
  std::vector<int64_t> expert(y.size()), rowIdx(y.size());
  for (int64_t r = 0; r < rows; ++r) {
    float* row = x.data() + r * E;
    if (a.renorm == 0) softmaxInPlace(row, E);
    const std::vector<int64_t> best = topK(row, E, k);
    for (int64_t j = 0; j < k; ++j) y[r * k + j] = row[best[j]];
    if (a.renorm == 1) softmaxInPlace(y.data() + r * k, k);
    const bool done = a.hasFinished && finished[r] != 0;
    for (int64_t j = 0; j < k; ++j) {
      expert[r * k + j] = done ? E : best[j];
      rowIdx[r * k + j] = j * rows + r;
    }
  }
  storeDense(out[0], y.data());
  storeDense(out[1], expert.data());
  if (a.writeRowIdx) storeDense(out[2], rowIdx.data());
  if (a.writeSoftmax) {
    std::vector<float> sm = loadDense<float>(in[0]);
    for (int64_t r = 0; r < rows; ++r) softmaxInPlace(sm.data() + r * E, E);
    storeDense(out[2], sm.data());
  }
}

int32_t buildGating(const char* api, const OpInfo& info, const aclTensor* x, const aclTensor* finished,
                    const GatingArgs& args, const aclTensor* y, const aclTensor* expertIdx,
                    const aclTensor* third, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})) != kSuccess) return st;
  if ((st = require(api, x->desc.rank() == 2 || x->desc.rank() == 3,
                    fmt::format("x must be 2-D or 3-D, is {}", shapeString(x->desc.shape)))) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "yOut", y, {x->desc.dtype})) != kSuccess) return st;
  if ((st = checkArg(api, "expertIdxOut", expertIdx, {ACL_INT32})) != kSuccess) return st;
  const int64_t E = x->desc.shape.back();
  if ((st = require(api, args.k > 0 && args.k <= E,
                    fmt::format("k {} must be in [1, {}] (experts)", args.k, E))) != kSuccess) {
    return st;
  }
  if ((st = require(api, args.renorm == 0 || args.renorm == 1,
                    fmt::format("renorm {} must be 0 or 1", args.renorm))) != kSuccess) {
    return st;
  }
  std::vector<int64_t> lead(x->desc.shape.begin(), x->desc.shape.end() - 1), outShape = lead;
  outShape.push_back(args.k);
  if ((st = checkShape(api, "yOut", y->desc.shape, outShape)) != kSuccess) return st;
  if ((st = checkShape(api, "expertIdxOut", expertIdx->desc.shape, outShape)) != kSuccess) return st;
  if (finished != nullptr) {
    if ((st = checkArg(api, "finishedOptional", finished, {ACL_BOOL})) != kSuccess) return st;
    if ((st = checkShape(api, "finishedOptional", finished->desc.shape, lead)) != kSuccess) return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = info.name;
  addInput(*inst, "x", x);
  if (finished != nullptr) addInput(*inst, "finished", finished);
  addOutput(*inst, "yOut", y);
  addOutput(*inst, "expertIdxOut", expertIdx);
  GatingArgs a = args;
  a.hasFinished = finished != nullptr;
  if (a.writeRowIdx) {
    if ((st = checkArg(api, "rowIdxOut", third, {ACL_INT32})) != kSuccess) return st;
    if ((st = checkShape(api, "rowIdxOut", third->desc.shape, outShape)) != kSuccess) return st;
    addOutput(*inst, "rowIdxOut", third);
  } else if (a.writeSoftmax) {
    if ((st = checkArg(api, "softmaxResultOutOptional", third, {ACL_FLOAT})) != kSuccess) return st;
    if ((st = checkShape(api, "softmaxResultOutOptional", third->desc.shape, x->desc.shape)) != kSuccess)
      return st;
    addOutput(*inst, "softmaxResultOutOptional", third);
  }
  // Exponentials, the sum and the division, then k selection passes over the row.
  inst->vectorPasses = 4 + static_cast<int>(std::min<int64_t>(args.k, 8));
  inst->kernel = [a](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    gatingKernel(a, in, out);
  };
  inst->attrs = fmt::format("k={} renorm={}", args.k, args.renorm);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

struct GroupArgs {
  int64_t k, kGroup, groupCount, selectMode, normType;
  bool hasBias, writeNorm;
  double scaling, eps;
};

// in: x [, bias]; out: y, expertIdx [, norm].
void groupGatingKernel(const GroupArgs& a, const std::vector<HostTensor>& in,
                       const std::vector<HostTensor>& out) {
  std::vector<float> norm = loadDense<float>(in[0]);
  const int64_t E = in[0].shape.back(), rows = E == 0 ? 0 : in[0].numel() / E, per = E / a.groupCount;
  const std::vector<float> bias =
      a.hasBias ? loadDense<float>(in[1]) : std::vector<float>(static_cast<size_t>(E));
  std::vector<float> y(static_cast<size_t>(rows * a.k)), sel(static_cast<size_t>(E)), groupScore;
  std::vector<int64_t> expert(y.size());
  for (int64_t r = 0; r < rows; ++r) {
    float* v = norm.data() + r * E;
    if (a.normType == 1) {
      for (int64_t e = 0; e < E; ++e) v[e] = 1.0f / (1.0f + std::exp(-v[e]));
    } else {
      softmaxInPlace(v, E);
    }
    for (int64_t e = 0; e < E; ++e) sel[e] = v[e] + bias[e];
    groupScore.assign(static_cast<size_t>(a.groupCount), 0.0f);
    for (int64_t g = 0; g < a.groupCount; ++g) {
      const std::vector<int64_t> best = topK(sel.data() + g * per, per, std::min<int64_t>(2, per));
      groupScore[g] = a.selectMode == 0 ? sel[g * per + best[0]]
                                        : sel[g * per + best[0]] + (per > 1 ? sel[g * per + best[1]] : 0.0f);
    }
    std::vector<float> masked(static_cast<size_t>(E), -INFINITY);
    for (int64_t g : topK(groupScore.data(), a.groupCount, a.kGroup)) {
      std::copy(sel.begin() + g * per, sel.begin() + (g + 1) * per, masked.begin() + g * per);
    }
    const std::vector<int64_t> chosen = topK(masked.data(), E, a.k);
    double sum = 0;
    for (int64_t e : chosen) sum += v[e];
    for (int64_t j = 0; j < a.k; ++j) {
      expert[r * a.k + j] = chosen[j];
      y[r * a.k + j] = static_cast<float>(v[chosen[j]] / (sum + a.eps) * a.scaling);
    }
  }
  storeDense(out[0], y.data());
  storeDense(out[1], expert.data());
  if (a.writeNorm) storeDense(out[2], norm.data());
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMoeGatingTopKGetWorkspaceSize(
    const aclTensor* x, const aclTensor* biasOptional, int64_t k, int64_t kGroup, int64_t groupCount,
    int64_t groupSelectMode, int64_t renorm, int64_t normType, bool outFlag, double routedScalingFactor,
    double eps, const aclTensor* yOut, const aclTensor* expertIdxOut, const aclTensor* outOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnMoeGatingTopKGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, 2)) != kSuccess) return st;
  const int64_t rows = x->desc.shape[0], E = x->desc.shape[1];
  if ((st =
           require(api, groupCount > 0 && E % groupCount == 0 && kGroup >= 1 && kGroup <= groupCount,
                   fmt::format("groupCount {} must divide the {} experts and kGroup {} be in [1, groupCount]",
                               groupCount, E, kGroup))) != kSuccess) {
    return st;
  }
  if ((st = require(api, k >= 1 && k <= kGroup * (E / groupCount),
                    fmt::format("k {} must be in [1, {}] (the experts of kGroup groups)", k,
                                kGroup * (E / groupCount)))) != kSuccess) {
    return st;
  }
  if ((st = require(
           api,
           renorm == 0 && (normType == 0 || normType == 1) && (groupSelectMode == 0 || groupSelectMode == 1),
           "renorm must be 0, normType and groupSelectMode 0 or 1")) != kSuccess) {
    return st;
  }
  if ((st = checkArg(api, "yOut", yOut, {x->desc.dtype})) != kSuccess) return st;
  if ((st = checkShape(api, "yOut", yOut->desc.shape, {rows, k})) != kSuccess) return st;
  if ((st = checkArg(api, "expertIdxOut", expertIdxOut, {ACL_INT32})) != kSuccess) return st;
  if ((st = checkShape(api, "expertIdxOut", expertIdxOut->desc.shape, {rows, k})) != kSuccess) return st;
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnMoeGatingTopK";
  addInput(*inst, "x", x);
  if (biasOptional != nullptr) {
    if ((st = checkArg(api, "biasOptional", biasOptional, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})) != kSuccess)
      return st;
    if ((st = checkShape(api, "biasOptional", biasOptional->desc.shape, {E})) != kSuccess) return st;
    addInput(*inst, "biasOptional", biasOptional);
  }
  addOutput(*inst, "yOut", yOut);
  addOutput(*inst, "expertIdxOut", expertIdxOut);
  const bool writeNorm = outFlag && outOut != nullptr;
  if (writeNorm) {
    if ((st = checkArg(api, "outOut", outOut, {ACL_FLOAT})) != kSuccess) return st;
    if ((st = checkShape(api, "outOut", outOut->desc.shape, x->desc.shape)) != kSuccess) return st;
    addOutput(*inst, "outOut", outOut);
  }
  const GroupArgs a{k,          kGroup,
                    groupCount, groupSelectMode,
                    normType,   biasOptional != nullptr,
                    writeNorm,  routedScalingFactor,
                    eps};
  inst->vectorPasses = 6 + static_cast<int>(std::min<int64_t>(k, 8));  // norm, bias, two sorts, selection
  inst->kernel = [a](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    groupGatingKernel(a, in, out);
  };
  inst->attrs = fmt::format("k={} kGroup={} groupCount={}", k, kGroup, groupCount);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(
    const aclTensor* x, const aclTensor* finishedOptional, int64_t k, const aclTensor* yOut,
    const aclTensor* expertIdxOut, const aclTensor* rowIdxOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  GatingArgs a;
  a.k = k;
  a.writeRowIdx = true;
  return buildGating("aclnnMoeGatingTopKSoftmaxGetWorkspaceSize", kInfoV1, x, finishedOptional, a, yOut,
                     expertIdxOut, rowIdxOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* finishedOptional, int64_t k, int64_t renorm,
    bool outputSoftmaxResultFlag, const aclTensor* yOut, const aclTensor* expertIdxOut,
    const aclTensor* softmaxResultOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  GatingArgs a;
  a.k = k;
  a.renorm = renorm;
  // The softmax of the whole row exists only when it is computed first (renorm 0).
  a.writeSoftmax = outputSoftmaxResultFlag && renorm == 0 && softmaxResultOutOptional != nullptr;
  return buildGating("aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize", kInfoV2, x, finishedOptional, a, yOut,
                     expertIdxOut, softmaxResultOutOptional, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(MoeGatingTopK)
NPUSIM_ACLNN_PHASE2(MoeGatingTopKSoftmax)
NPUSIM_ACLNN_PHASE2(MoeGatingTopKSoftmaxV2)
