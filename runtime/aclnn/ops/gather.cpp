// aclnnGather (ops-nn index/gather_elements_v2/docs/aclnnGather.md): torch.gather, out has
// index's shape and out[p] = self[p with its `dim` coordinate replaced by index[p]]; index
// (int32/int64) has self's rank and no larger extent than self outside dim.
#include <fmt/format.h>

#include "aclnnop/aclnn_gather.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/index_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnGather",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out[p] = self[p with p[dim] = index[p]]"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim,
                                                   const aclTensor* index, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGatherGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int64_t d = 0;
  int32_t st = checkIndexArgsAlongDim(api, kInfo, self, index, out, dim, &d);
  if (st != kSuccess) return st;
  const size_t rank = self->desc.rank();
  bool ok = index->desc.rank() == rank;
  for (size_t a = 0; ok && a < rank; ++a)
    ok = static_cast<int64_t>(a) == d || index->desc.shape[a] <= self->desc.shape[a];
  if (!ok) {
    return fail(api, kErrParamInvalid,
                fmt::format("index shape {} must have self's rank and fit in self shape {} outside dim {}",
                            shapeString(index->desc.shape), shapeString(self->desc.shape), d));
  }
  if ((st = checkShape(api, "out", out->desc.shape, index->desc.shape)) != kSuccess) return st;
  auto inst = makeIndexInstance("aclnnGather", d, "self", self, "index", index, "out", out);
  inst->elementwise = true;
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Gather)
