/*
 * npusim: aclnnSoftmaxBackward, output * (gradOutput - sum(gradOutput * output)) along dim.
 * Declarations as in hicann/ops-nn activation/softmax_grad/op_api/aclnn_softmax_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H_ */
