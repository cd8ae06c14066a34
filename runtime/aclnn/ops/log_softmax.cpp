// aclnnLogSoftmax (ops-nn activation/log_softmax_v2/docs/aclnnLogSoftmax.md): out = self - max - log(sum(exp(self - max))) along dim; fp32, fp16, bf16 (computed in fp32).
#include "aclnnop/aclnn_logsoftmax.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/softmax_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnLogSoftmax", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}, "out = self - max - log(sum(exp(self - max))) along dim"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::buildSoftmax("aclnnLogSoftmaxGetWorkspaceSize", "aclnnLogSoftmax", npusim::aclnn::kInfo, true, self, dim,
                                     out, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(LogSoftmax)
