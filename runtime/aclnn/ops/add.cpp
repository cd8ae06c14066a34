// aclnnAdd / aclnnAdds / aclnnInplaceAdd / aclnnInplaceAdds: out = self + alpha * other
// (ops-math math/add/docs/aclnnAdd&aclnnInplaceAdd.md). Broadcasting and type promotion as
// documented; computed in the promoted type (fp16/bf16 in fp32, rounded once).
#include "aclnnop/aclnn_add.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/binary_op.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnAdd",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = self + alpha * other"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

NPUSIM_ACLNN_BINARY_ALPHA_TENSOR(Add, kInfo, kAdd, const aclTensor)
NPUSIM_ACLNN_BINARY_ALPHA_SCALAR(Adds, kInfo, kAdd, const aclTensor)
