// aclnnSub / aclnnSubs / aclnnInplaceSub / aclnnInplaceSubs: out = self - alpha * other
// (ops-math math/sub/docs/aclnnSub&aclnnInplaceSub.md). Like the 910B implementation, a
// floating-point subtraction with alpha != 1 is computed in fp32 (fp64 stays fp64).
#include "aclnnop/aclnn_sub.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnSub",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self - alpha * other"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_BINARY_ALPHA_TENSOR(Sub, kInfo, kSub, aclTensor)
NPUSIM_ACLNN_BINARY_ALPHA_SCALAR(Subs, kInfo, kSub, aclTensor)
