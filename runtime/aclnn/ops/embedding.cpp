// aclnnEmbedding (ops-nn index/embedding/docs/aclnnEmbedding.md): out = the rows of the 2-D
// weight picked by indices (int32/int64, any shape); out has shape indices.shape + [embedding
// dim] and weight's type.
#include <fmt/format.h>

#include "aclnnop/aclnn_embedding.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/index_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnEmbedding",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = weight[indices]"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                                      const aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnEmbeddingGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkIndexArgs(api, kInfo, "weight", weight, "indices", indices, out);
  if (st != kSuccess) return st;
  if (weight->desc.rank() != 2) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("weight must have 2 dimensions, but has shape {}", shapeString(weight->desc.shape)));
  }
  std::vector<int64_t> shape = indices->desc.shape;
  shape.push_back(weight->desc.shape[1]);
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  if (indices->desc.rank() + 1 > kMaxDims) {
    return fail(api, kErrParamInvalid, fmt::format("indices may have at most {} dimensions", kMaxDims - 1));
  }
  auto inst = makeIndexInstance("aclnnEmbedding", 0, "weight", weight, "indices", indices, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Embedding)
