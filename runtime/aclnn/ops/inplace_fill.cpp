// Fills of selfRef with a value (ops-math conversion/fill): aclnnInplaceFillScalar
// (docs/aclnnInplaceFillScalar.md), a host scalar converted to selfRef's type, written without
// reads (fill_op.h); aclnnInplaceFillTensor (docs/aclnnInplaceFillTensor.md), a 0-D or
// one-element 1-D device tensor, copied broadcast to selfRef's shape (copy_op.h): reads the
// element, writes selfRef.
#include <fmt/format.h>

#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/fill_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kScalar{"aclnnInplaceFillScalar",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                      ACL_INT64, ACL_BOOL},
                     "selfRef = value"};
const OpInfo kTensor{"aclnnInplaceFillTensor",
                     ExecUnit::kVector,
                     {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_UINT16, ACL_UINT32,
                      ACL_UINT64, ACL_BOOL, ACL_BF16, ACL_FLOAT, ACL_FLOAT16},
                     "selfRef = value[0]"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kScalar), OpRegistrar(kTensor)};

// The checks both share: neither pointer null, selfRef a valid tensor of info's types.
int32_t checkFill(const char* api, const OpInfo& info, const aclTensor* selfRef, const void* value) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"selfRef", selfRef}, {"value", value}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "selfRef", selfRef->desc)) != kSuccess) return st;
  return checkDtype(api, "selfRef", selfRef->desc.dtype, info);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnInplaceFillScalarGetWorkspaceSize";
  int32_t st = checkFill(api, kScalar, selfRef, value);
  if (st != kSuccess) return st;
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

extern "C" aclnnStatus aclnnInplaceFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* value,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnInplaceFillTensorGetWorkspaceSize";
  int32_t st = checkFill(api, kTensor, selfRef, value);
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "value", value->desc)) != kSuccess) return st;
  if (selfRef->desc.rank() > 8) {
    return fail(api, kErrParamInvalid,
                fmt::format("selfRef has {} dimensions, at most 8", selfRef->desc.rank()));
  }
  if (value->desc.rank() > 1 || value->desc.numel() != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("value must be 0-D or 1-D with one element, not of shape {}",
                            shapeString(value->desc.shape)));
  }
  if (!canCast(value->desc.dtype, selfRef->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("value of type {} cannot be cast to selfRef's type {}",
                            dtypeName(value->desc.dtype), dtypeName(selfRef->desc.dtype)));
  }
  auto inst = std::make_unique<CopyInstance>();
  inst->name = "aclnnInplaceFillTensor";
  addInput(*inst, "value", value);
  addOutput(*inst, "selfRef", selfRef);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceFillTensor)
