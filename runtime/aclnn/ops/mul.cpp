// aclnnMul / aclnnMuls / aclnnInplaceMul / aclnnInplaceMuls: out = self * other
// (ops-math math/mul/docs/aclnnMul&aclnnInplaceMul.md), with broadcasting and type promotion.
#include "aclnnop/aclnn_mul.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/binary_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnMul",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self * other"};
const OpRegistrar kRegistrar(kInfo);

BinaryApi api(const char* phase1, const char* phase2) {
  return {phase1, phase2, &kInfo, BinaryKind::kMul, false};
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::api;
using npusim::aclnn::buildBinary;
using npusim::aclnn::buildBinaryScalar;

extern "C" {

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinary(api("aclnnMulGetWorkspaceSize", "aclnnMul"), self, other, nullptr, out, false,
                     workspaceSize, executor);
}

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnMulsGetWorkspaceSize", "aclnnMuls"), self, other, nullptr, out, false,
                           workspaceSize, executor);
}

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinary(api("aclnnInplaceMulGetWorkspaceSize", "aclnnInplaceMul"), selfRef, other, nullptr,
                     selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnInplaceMulsGetWorkspaceSize", "aclnnInplaceMuls"), selfRef, other,
                           nullptr, selfRef, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Mul)
NPUSIM_ACLNN_PHASE2(Muls)
NPUSIM_ACLNN_PHASE2(InplaceMul)
NPUSIM_ACLNN_PHASE2(InplaceMuls)
