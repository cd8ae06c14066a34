// aclnnDiv / aclnnDivs / aclnnInplaceDiv / aclnnInplaceDivs (ops-math math/div/docs/aclnnDiv&aclnnInplaceDiv.md):
// out = self / other (true division: integer and bool operands are divided in fp32), with
// broadcasting and type promotion.
#include "aclnnop/aclnn_div.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnDiv",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self / other"};
const OpRegistrar kRegistrar(kInfo);

BinaryApi api(const char* phase1, const char* phase2) { return {phase1, phase2, &kInfo, BinaryKind::kDiv, false}; }

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::api;
using npusim::aclnn::buildBinary;
using npusim::aclnn::buildBinaryScalar;

extern "C" {

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinary(api("aclnnDivGetWorkspaceSize", "aclnnDiv"), self, other, nullptr, out, false, workspaceSize,
                     executor);
}

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnDivsGetWorkspaceSize", "aclnnDivs"), self, other, nullptr, out, false,
                           workspaceSize, executor);
}

aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return buildBinary(api("aclnnInplaceDivGetWorkspaceSize", "aclnnInplaceDiv"), selfRef, other, nullptr, selfRef,
                     true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnInplaceDivsGetWorkspaceSize", "aclnnInplaceDivs"), selfRef, other, nullptr,
                           selfRef, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Div)
NPUSIM_ACLNN_PHASE2(Divs)
NPUSIM_ACLNN_PHASE2(InplaceDiv)
NPUSIM_ACLNN_PHASE2(InplaceDivs)
