/*
 * npusim: aclnnLeakyReluBackward, an activation's gradient (runtime/aclnn/ops/activation_grads.cpp).
 * Declarations as in hicann/ops-nn activation/leaky_relu_grad.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeakyReluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* negativeSlope, bool selfIsResult, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeakyReluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H_ */
