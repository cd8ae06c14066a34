/*
 * npusim: aclnnSoftmaxGrad, a loss over a class dimension (runtime/aclnn/ops/class_losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/softmax_grad (the generated header of its op definition: y, dy, dx).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy, const aclTensor* dx, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftmaxGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_GRAD_H_ */
