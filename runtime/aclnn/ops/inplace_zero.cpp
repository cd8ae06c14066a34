// aclnnInplaceZero (ops-math math/zero_op/docs/aclnnInplaceZero.md): selfRef = 0.
#include "aclnnop/aclnn_zero.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/fill_op.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnInplaceZero",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "selfRef = 0"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnInplaceZeroGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"selfRef", selfRef}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "selfRef", selfRef->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "selfRef", selfRef->desc.dtype, kInfo)) != kSuccess) return st;
  return makeExecutor(api, newFill("aclnnInplaceZero", "selfRef", selfRef), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(InplaceZero)
