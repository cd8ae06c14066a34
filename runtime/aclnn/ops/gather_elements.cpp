// aclnnGatherElementsV3 (ops-nn experimental/index/gather_elements_v3) on the gather engine
// (index_op.h): torch.gather along dim, as aclnnGather, with the op definition's types.
#include <fmt/format.h>

#include "aclnnop/aclnn_gather_elements_v3.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/index_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnGatherElementsV3",
                   ExecUnit::kVector,
                   {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT32},
                   "y[p] = x[p with p[dim] = index[p]]"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGatherElementsV3GetWorkspaceSize(const aclTensor* x, const aclTensor* index,
                                                             int64_t dim, const aclTensor* y,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGatherElementsV3GetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int64_t d = 0;
  int32_t st = checkIndexArgsAlongDim(api, kInfo, x, index, y, dim, &d);
  if (st != kSuccess) return st;
  const size_t rank = x->desc.rank();
  bool ok = index->desc.rank() == rank;
  for (size_t a = 0; ok && a < rank; ++a)
    ok = static_cast<int64_t>(a) == d || index->desc.shape[a] <= x->desc.shape[a];
  if (!ok) {
    return fail(api, kErrParamInvalid,
                fmt::format("index shape {} must have x's rank and fit in x shape {} outside dim {}",
                            shapeString(index->desc.shape), shapeString(x->desc.shape), d));
  }
  if ((st = checkShape(api, "y", y->desc.shape, index->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<IndexInstance>();
  inst->name = "aclnnGatherElementsV3";
  inst->elementwise = true;
  inst->dim = d;
  addInput(*inst, "x", x);
  addInput(*inst, "index", index);
  addOutput(*inst, "y", y);
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GatherElementsV3)
