// aclnnPowTensorTensor / aclnnInplacePowTensorTensor (ops-math math/pow/docs/
// aclnnPowTensorTensor&aclnnInplacePowTensorTensor.md): out = self ^ exponent element by
// element over their broadcast, in the promoted type; integers raise with wrap-around.
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnPowTensorTensor",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64},
    "out = self ^ exponent"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildBinary(
      {"aclnnPowTensorTensorGetWorkspaceSize", "aclnnPowTensorTensor", &kInfo, BinaryKind::kPow, false}, self,
      exponent, nullptr, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildBinary({"aclnnInplacePowTensorTensorGetWorkspaceSize", "aclnnInplacePowTensorTensor", &kInfo,
                      BinaryKind::kPow, false},
                     self, exponent, nullptr, self, true, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(PowTensorTensor)
NPUSIM_ACLNN_PHASE2(InplacePowTensorTensor)
