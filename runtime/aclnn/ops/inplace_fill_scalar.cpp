// aclnnInplaceFillScalar (ops-math conversion/fill/docs/aclnnInplaceFillScalar.md):
// selfRef = value, the scalar converted to selfRef's type.
#include <fmt/format.h>

#include "aclnnop/aclnn_fill_scalar.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/fill_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnInplaceFillScalar",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "selfRef = value"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnInplaceFillScalarGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"selfRef", selfRef}, {"value", value}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "selfRef", selfRef->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "selfRef", selfRef->desc.dtype, kInfo)) != kSuccess) return st;
  const aclDataType vt = value->value.dtype;
  if (isComplex(vt) || dtypeSize(vt) == 0) {
    return fail(api, kErrParamInvalid, fmt::format("value of type {} is not supported", dtypeName(vt)));
  }
  auto inst = newFill("aclnnInplaceFillScalar", "selfRef", selfRef);
  inst->integral = isIntegral(selfRef->desc.dtype, true);
  inst->start = value->value.toDouble();
  inst->startInt = selfRef->desc.dtype == ACL_BOOL ? (value->value.isZero() ? 0 : 1) : value->value.toInt64();
  inst->attrs = "value=" + value->value.str();
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(InplaceFillScalar)
