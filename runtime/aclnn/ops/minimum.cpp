// aclnnMinimum (ops-math math/minimum/docs/aclnnMinimum.md): out = min(self, other) elementwise, with broadcasting and
// type promotion; a NaN in either operand gives NaN.
#include "aclnnop/aclnn_minimum.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnMinimum",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = min(self, other)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  return buildBinary({"aclnnMinimumGetWorkspaceSize", "aclnnMinimum", &kInfo, BinaryKind::kMin, false}, self, other, nullptr,
                     out, false, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Minimum)
