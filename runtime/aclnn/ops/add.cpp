// aclnnAdd / aclnnAdds / aclnnInplaceAdd / aclnnInplaceAdds: out = self + alpha * other
// (ops-math math/add/docs/aclnnAdd&aclnnInplaceAdd.md). Broadcasting and type promotion as
// documented; computed in the promoted type (fp16/bf16 in fp32, rounded once).
#include "aclnnop/aclnn_add.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/binary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnAdd",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self + alpha * other"};
const OpRegistrar kRegistrar(kInfo);

BinaryApi api(const char* phase1, const char* phase2) {
  return {phase1, phase2, &kInfo, BinaryKind::kAdd, true};
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::api;
using npusim::aclnn::buildBinary;
using npusim::aclnn::buildBinaryScalar;

extern "C" {

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinary(api("aclnnAddGetWorkspaceSize", "aclnnAdd"), self, other, alpha, out, false,
                     workspaceSize, executor);
}

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnAddsGetWorkspaceSize", "aclnnAdds"), self, other, alpha, out, false,
                           workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return buildBinary(api("aclnnInplaceAddGetWorkspaceSize", "aclnnInplaceAdd"), selfRef, other, alpha,
                     selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnInplaceAddsGetWorkspaceSize", "aclnnInplaceAdds"), selfRef, other, alpha,
                           selfRef, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Add)
NPUSIM_ACLNN_PHASE2(Adds)
NPUSIM_ACLNN_PHASE2(InplaceAdd)
NPUSIM_ACLNN_PHASE2(InplaceAdds)
