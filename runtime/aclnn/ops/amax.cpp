// aclnnAmax (ops-math math/reduce_max/docs/aclnnAmax.md): out = maximum of self over `dim`
// (every dimension when dim is empty), NaN propagating; out has self's type.
#include <fmt/format.h>

#include "aclnnop/aclnn_amax.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/reduce_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnAmax",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = max(self, dim)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnAmaxGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"dim", dim}, {"out", out}});
  if (st != kSuccess) return st;
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal self type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  return buildReduce(
      {api, "aclnnAmax", &kInfo, ReduceKind::kMax, 0}, self, dim->values, keepDim, self->desc.dtype, out,
      fmt::format("dim={}, keepDim={}", shapeString(dim->values), keepDim), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Amax)
