// aclnnArgMax (ops-math math/arg_max_v2/docs/aclnnArgMax.md): out = index along `dim` of the
// first maximum of self (the first NaN if any); out is int64 or int32.
#include <fmt/format.h>

#include "aclnnop/aclnn_argmax.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/reduce_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnArgMax",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out = argmax(self, dim)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnArgMaxGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if (out->desc.dtype != ACL_INT64 && out->desc.dtype != ACL_INT32) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type must be int64 or int32, but is {}", dtypeName(out->desc.dtype)));
  }
  // Compare, then select the index: two vector passes.
  return buildReduce({api, "aclnnArgMax", &kInfo, ReduceKind::kArgMax, 1}, self, {dim}, keepdim,
                     self->desc.dtype, out, fmt::format("dim={}, keepdim={}", dim, keepdim), workspaceSize,
                     executor);
}

NPUSIM_ACLNN_PHASE2(ArgMax)
