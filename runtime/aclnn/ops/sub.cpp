// aclnnSub / aclnnSubs / aclnnInplaceSub / aclnnInplaceSubs: out = self - alpha * other
// (ops-math math/sub/docs/aclnnSub&aclnnInplaceSub.md). Like the 910B implementation, a
// floating-point subtraction with alpha != 1 is computed in fp32 (fp64 stays fp64).
#include "aclnnop/aclnn_sub.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/binary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnSub",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self - alpha * other"};
const OpRegistrar kRegistrar(kInfo);

BinaryApi api(const char* phase1, const char* phase2) {
  return {phase1, phase2, &kInfo, BinaryKind::kSub, true};
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::api;
using npusim::aclnn::buildBinary;
using npusim::aclnn::buildBinaryScalar;

extern "C" {

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinary(api("aclnnSubGetWorkspaceSize", "aclnnSub"), self, other, alpha, out, false,
                     workspaceSize, executor);
}

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnSubsGetWorkspaceSize", "aclnnSubs"), self, other, alpha, out, false,
                           workspaceSize, executor);
}

aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return buildBinary(api("aclnnInplaceSubGetWorkspaceSize", "aclnnInplaceSub"), selfRef, other, alpha,
                     selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnInplaceSubsGetWorkspaceSize", "aclnnInplaceSubs"), selfRef, other, alpha,
                           selfRef, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Sub)
NPUSIM_ACLNN_PHASE2(Subs)
NPUSIM_ACLNN_PHASE2(InplaceSub)
NPUSIM_ACLNN_PHASE2(InplaceSubs)
