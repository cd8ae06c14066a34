// aclnnPowTensorScalar / aclnnInplacePowTensorScalar (ops-math math/pow/docs/
// aclnnPowTensorScalar&aclnnInplacePowTensorScalar.md): out = self ^ exponent, the scalar
// promoted with self as aclnnMuls does; integers raise with wrap-around.
#include "aclnnop/aclnn_pow.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnPowTensorScalar",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out = self ^ exponent (scalar)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
                                                 const aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildBinaryScalar(
      {"aclnnPowTensorScalarGetWorkspaceSize", "aclnnPowTensorScalar", &kInfo, BinaryKind::kPow, false}, self,
      exponent, nullptr, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildBinaryScalar({"aclnnInplacePowTensorScalarGetWorkspaceSize", "aclnnInplacePowTensorScalar",
                            &kInfo, BinaryKind::kPow, false},
                           self, exponent, nullptr, self, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(PowTensorScalar)
NPUSIM_ACLNN_PHASE2(InplacePowTensorScalar)
