// aclnnMean (ops-math math/reduce_mean/docs/aclnnMean.md): out = mean of self over `dim`
// (every dimension when dim is empty), self first cast to `dtype`, which must be out's type
// and a floating type. Sums in fp64, rounded once.
#include <fmt/format.h>

#include "aclnnop/aclnn_mean.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/reduce_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnMean",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out = mean(self, dim)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnMeanGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"dim", dim}, {"out", out}});
  if (st != kSuccess) return st;
  if (!isFloating(dtype) || out->desc.dtype != dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("dtype {} must be a floating type and equal out's type {}", dtypeName(dtype),
                            dtypeName(out->desc.dtype)));
  }
  if (!canCast(self->desc.dtype, dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self type {} cannot be cast to dtype {}", dtypeName(self->desc.dtype),
                            dtypeName(dtype)));
  }
  return buildReduce(
      {api, "aclnnMean", &kInfo, ReduceKind::kMean, 1}, self, dim->values, keepDim, dtype, out,
      fmt::format("dim={}, keepDim={}, dtype={}", shapeString(dim->values), keepDim, dtypeName(dtype)),
      workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Mean)
