// aclnnMul / aclnnMuls / aclnnInplaceMul / aclnnInplaceMuls: out = self * other
// (ops-math math/mul/docs/aclnnMul&aclnnInplaceMul.md), with broadcasting and type promotion.
#include "aclnnop/aclnn_mul.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnMul",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self * other"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_BINARY_TENSOR(Mul, kInfo, kMul, aclTensor)
NPUSIM_ACLNN_BINARY_SCALAR(Muls, kInfo, kMul, aclTensor)
