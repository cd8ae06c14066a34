// aclnnIndexSelect (ops-nn index/gather_v2/docs/aclnnIndexSelect.md): out = self with its
// dimension `dim` replaced by the entries of the 1-D (or 0-D) int32/int64 index; out has
// self's type.
#include <fmt/format.h>

#include "aclnnop/aclnn_index_select.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/index_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnIndexSelect",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self[..., index, ...] along dim"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                        const aclTensor* index, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnIndexSelectGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int64_t d = 0;
  int32_t st = checkIndexArgsAlongDim(api, kInfo, self, index, out, dim, &d);
  if (st != kSuccess) return st;
  const size_t rank = self->desc.rank();
  if (index->desc.rank() > 1) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("index must have at most 1 dimension, but has shape {}", shapeString(index->desc.shape)));
  }
  std::vector<int64_t> shape = self->desc.shape;
  if (rank > 0) shape[static_cast<size_t>(d)] = index->desc.numel();
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  auto inst = makeIndexInstance("aclnnIndexSelect", d, "self", self, "index", index, "out", out);
  inst->attrs = fmt::format("dim={}", dim);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(IndexSelect)
