/*
 * npusim: aclnnEluGrad, (min(activations, 0) + 1) * grads.
 * Declarations as in hicann/ops-nn experimental/activation/elu_grad (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEluGradGetWorkspaceSize(const aclTensor* grads, const aclTensor* activations, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEluGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_GRAD_H_ */
