/*
 * npusim: aclnnCrossEntropyGrad, a loss over a class dimension (runtime/aclnn/ops/class_losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/cross_entropy_grad (the generated header of its op definition: logits, target, grad_input).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CROSS_ENTROPY_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CROSS_ENTROPY_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCrossEntropyGradGetWorkspaceSize(const aclTensor* logits, const aclTensor* target, const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCrossEntropyGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CROSS_ENTROPY_GRAD_H_ */
