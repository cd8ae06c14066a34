// aclnnMm (ops-nn matmul/mat_mul_v3/docs/aclnnMm.md): out = self @ mat2 (2-D); fp32, fp16, bf16; cubeMathType as aclnnMatmul.
#include "aclnnop/aclnn_mm.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnMm", ExecUnit::kCube, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "out = self @ mat2 (2-D)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                int8_t cubeMathType, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return npusim::aclnn::buildMatmul({"aclnnMmGetWorkspaceSize", "aclnnMm", &npusim::aclnn::kInfo, 2}, self,
                                    mat2, out, cubeMathType, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Mm)
