// aclnnBatchMatMul (ops-nn matmul/batch_mat_mul_v3/docs/aclnnBatchMatMul.md): out[b] = self[b] @ mat2[b] (3-D, batch broadcast); fp32, fp16, bf16; cubeMathType as aclnnMatmul.
#include "aclnnop/aclnn_batch_matmul.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnBatchMatMul", ExecUnit::kCube, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "out[b] = self[b] @ mat2[b] (3-D, batch broadcast)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                int8_t cubeMathType, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return npusim::aclnn::buildMatmul({"aclnnBatchMatMulGetWorkspaceSize", "aclnnBatchMatMul", &npusim::aclnn::kInfo, 3}, self,
                                    mat2, out, cubeMathType, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(BatchMatMul)
