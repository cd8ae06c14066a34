// aclnnAddRelu / aclnnInplaceAddRelu (ops-nn activation/relu/docs/aclnnAddRelu&aclnnInplaceAddRelu.md):
// out = relu(self + alpha * other), the add's broadcasting and type promotion (binary_op.h) with
// the max with 0 fused after it. alpha is required (null is 161001).
#include "aclnnop/aclnn_add_relu.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnAddRelu",
                   ExecUnit::kVector,
                   {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
                   "out = max(self + alpha * other, 0)"};
const OpRegistrar kRegistrar(kInfo);

int32_t buildAddRelu(const char* phase1, const char* phase2, const aclTensor* self, const aclTensor* other,
                     const aclScalar* alpha, const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
  if (alpha == nullptr) {
    rt::chargeOpPrepare(phase1);
    return checkNotNull(phase1, {{"alpha", alpha}});
  }
  return buildBinary({phase1, phase2, &kInfo, BinaryKind::kAddRelu, true}, self, other, alpha, out, inplace,
                     workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAddReluGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                    aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return npusim::aclnn::buildAddRelu("aclnnAddReluGetWorkspaceSize", "aclnnAddRelu", self, other, alpha, out,
                                     false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(AddRelu)

extern "C" aclnnStatus aclnnInplaceAddReluGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                           aclScalar* alpha, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return npusim::aclnn::buildAddRelu("aclnnInplaceAddReluGetWorkspaceSize", "aclnnInplaceAddRelu", selfRef,
                                     other, alpha, selfRef, true, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(InplaceAddRelu)
