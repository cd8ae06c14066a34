// aclnnMul / aclnnMuls / aclnnInplaceMul / aclnnInplaceMuls: out = self * other
// (ops-math math/mul/docs/aclnnMul&aclnnInplaceMul.md), with broadcasting and type promotion.
#include "aclnnop/aclnn_mul.h"
#include "runtime/aclnn/base/executor.h"
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
using npusim::aclnn::runExecutor;

extern "C" {

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinary(api("aclnnMulGetWorkspaceSize", "aclnnMul"), self, other, nullptr, out, false,
                     workspaceSize, executor);
}

aclnnStatus aclnnMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return runExecutor("aclnnMul", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnMulsGetWorkspaceSize", "aclnnMuls"), self, other, nullptr, out, false,
                           workspaceSize, executor);
}

aclnnStatus aclnnMuls(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return runExecutor("aclnnMuls", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinary(api("aclnnInplaceMulGetWorkspaceSize", "aclnnInplaceMul"), selfRef, other, nullptr,
                     selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                            aclrtStream stream) {
  return runExecutor("aclnnInplaceMul", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildBinaryScalar(api("aclnnInplaceMulsGetWorkspaceSize", "aclnnInplaceMuls"), selfRef, other,
                           nullptr, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceMuls(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                             aclrtStream stream) {
  return runExecutor("aclnnInplaceMuls", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
