/*
 * npusim: aclnnPreluBackward, the gradients of aclnnPrelu for self and weight.
 * Declarations as in hicann/ops-nn activation/p_relu_grad_update/op_api/aclnn_prelu_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PRELU_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PRELU_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPreluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* weight, aclTensor* gradInput, aclTensor* gradWeight, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPreluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PRELU_BACKWARD_H_ */
