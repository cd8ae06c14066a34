// Constant fills of a tensor: aclnnInplaceZero (ops-math math/zero_op/docs/aclnnInplaceZero.md),
// selfRef = 0, and aclnnInplaceOne (ops-math math/ones_like/docs/aclnnInplaceOne.md), selfRef = 1.
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_zero.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/fill_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kZero{"aclnnInplaceZero",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "selfRef = 0"};
const OpInfo kOne{"aclnnInplaceOne",
                  ExecUnit::kVector,
                  {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16,
                   ACL_INT32, ACL_INT64, ACL_BOOL},
                  "selfRef = 1"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kZero), OpRegistrar(kOne)};

// Phase 1 of `info` writing `value` into every element of selfRef.
int32_t buildConstantFill(const OpInfo& info, const aclTensor* selfRef, int64_t value,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string api = info.name + "GetWorkspaceSize";
  rt::chargeOpPrepare(api.c_str());
  int32_t st = checkNotNull(api.c_str(), {{"selfRef", selfRef}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api.c_str(), "selfRef", selfRef->desc)) != kSuccess) return st;
  if ((st = checkDtype(api.c_str(), "selfRef", selfRef->desc.dtype, info)) != kSuccess) return st;
  auto inst = newFill(info.name.c_str(), "selfRef", selfRef);
  inst->integral = isIntegral(selfRef->desc.dtype, true);
  inst->start = static_cast<double>(value);
  inst->startInt = value;
  return makeExecutor(api.c_str(), std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return npusim::aclnn::buildConstantFill(npusim::aclnn::kZero, selfRef, 0, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceZero)

extern "C" aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor* selfRef, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return npusim::aclnn::buildConstantFill(npusim::aclnn::kOne, selfRef, 1, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceOne)
