// aclnnCast (ops-math math/cast/docs/aclnnCast.md): out = self converted to `dtype`.
// Float to integer truncates toward zero; narrowing floats round to nearest even.
#include <fmt/format.h>

#include "aclnnop/aclnn_cast.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnCast",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16,
                    ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL},
                   "out = (dtype) self"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnCastGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, kInfo)) != kSuccess) return st;
  if ((st = checkDtype(api, "dtype", dtype, kInfo)) != kSuccess) return st;
  if (out->desc.dtype != dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal dtype {}", dtypeName(out->desc.dtype), dtypeName(dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, self->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnCast";
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  inst->attrs = fmt::format("dtype={}", dtypeName(dtype));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Cast)
