// Embedding gradients on the index/scatter engine (scatter_op.h): aclnnEmbeddingDenseBackward
// (ops-nn index/embedding_dense_grad, embedding_dense_grad_v2) and the experimental
// aclnnEmbeddingDenseGrad (experimental/index/embedding_dense_grad): out [numWeights, D] starts
// at zero and row indices[i] accumulates grad row i, except rows equal to paddingIdx; with
// scaleGradByFreq each contribution is divided by how often its index occurs.
#include <fmt/format.h>

#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "aclnnop/aclnn_embedding_dense_grad.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/scatter_op.h"

namespace npusim::aclnn {
namespace {

// aclnnEmbeddingDenseBackward.md: grad FLOAT, FLOAT16, BFLOAT16; the experimental op's
// definition: FLOAT, FLOAT16.
const OpInfo kDenseBackward{"aclnnEmbeddingDenseBackward",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                            "out[w] = sum of grad[i] over indices[i] == w (w != paddingIdx)"};
const OpRegistrar kDenseBackwardRegistrar(kDenseBackward);
const OpInfo kDenseGrad{"aclnnEmbeddingDenseGrad",
                        ExecUnit::kVector,
                        {ACL_FLOAT, ACL_FLOAT16},
                        "y[w] = sum of grad[i] over indices[i] == w (w != padding_idx)"};
const OpRegistrar kDenseGradRegistrar(kDenseGrad);

// paddingIdx < 0 or >= numWeights: no row is skipped.
int32_t denseGrad(const char* api, const OpInfo& info, const aclTensor* grad, const aclTensor* indices,
                  int64_t numWeights, int64_t paddingIdx, bool scaleGradByFreq, const aclTensor* out,
                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"indices", indices}});
  if (st != kSuccess || (st = checkMapArgs(api, info, "grad", grad, "out", out)) != kSuccess) return st;
  if ((st = checkTensor(api, "indices", indices->desc)) != kSuccess) return st;
  if (indices->desc.dtype != ACL_INT32 && indices->desc.dtype != ACL_INT64)
    return fail(api, kErrParamInvalid,
                fmt::format("indices type must be int32 or int64, not {}", dtypeName(indices->desc.dtype)));
  const std::vector<int64_t> gs = grad->desc.shape;
  if (gs.empty() || indices->desc.numel() * gs.back() != grad->desc.numel()) {
    return fail(api, kErrParamInvalid,
                fmt::format("grad {} must hold one row per index ({} indices)", shapeString(gs),
                            indices->desc.numel()));
  }
  if (numWeights < 0)
    return fail(api, kErrParamInvalid, fmt::format("numWeights {} is negative", numWeights));
  const int64_t d = gs.back();
  if ((st = checkShape(api, "out", out->desc.shape, {numWeights, d})) != kSuccess) return st;
  auto inst = std::make_unique<ScatterInstance>();
  inst->name = info.name;
  addInput(*inst, "grad", grad);
  addInput(*inst, "indices", indices);
  addOutput(*inst, "out", out);
  inst->selfInput = -1;
  inst->indexInput = 1;
  inst->srcInput = 0;
  inst->reduce = ScatterReduce::kAdd;
  inst->updateShape = {indices->desc.numel(), d};
  // grad is read at the update position: view it as [indices, D].
  inst->inputs[0].shape = inst->updateShape;
  inst->inputs[0].strides = {gs.size() >= 2 ? grad->desc.strides[gs.size() - 2] : d,
                             grad->desc.strides.back()};
  if (!grad->desc.isContiguous() && gs.size() > 2)
    return fail(api, kErrParamInvalid, "a non-contiguous grad must have at most 2 dimensions");
  inst->dest = [numWeights, paddingIdx, d](const std::vector<int64_t>& p, const std::vector<int64_t>& idx) {
    const int64_t w = idx[static_cast<size_t>(p[0])];
    if (w < 0 || w >= numWeights || w == paddingIdx) return int64_t{-1};
    return w * d + p[1];
  };
  if (scaleGradByFreq) inst->frequencyOf = [](const std::vector<int64_t>& p) { return p[0]; };
  inst->attrs =
      fmt::format("numWeights={} paddingIdx={} scaleGradByFreq={}", numWeights, paddingIdx, scaleGradByFreq);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(
    const aclTensor* grad, const aclTensor* indices, uint64_t numWeights, uint64_t paddingIdx,
    bool scaleGradByFreq, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return denseGrad("aclnnEmbeddingDenseBackwardGetWorkspaceSize", kDenseBackward, grad, indices,
                   static_cast<int64_t>(numWeights), static_cast<int64_t>(paddingIdx), scaleGradByFreq, out,
                   workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(EmbeddingDenseBackward)

extern "C" aclnnStatus aclnnEmbeddingDenseGradGetWorkspaceSize(const aclTensor* grad,
                                                               const aclTensor* indices, int64_t numWeights,
                                                               int64_t paddingIdx, bool scaleGradByFreq,
                                                               const aclTensor* y, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
  return denseGrad("aclnnEmbeddingDenseGradGetWorkspaceSize", kDenseGrad, grad, indices, numWeights,
                   paddingIdx, scaleGradByFreq, y, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(EmbeddingDenseGrad)
