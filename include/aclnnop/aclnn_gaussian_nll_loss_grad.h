/*
 * npusim: aclnnGaussianNllLossGrad, a loss gradient (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/gaussian_nll_loss_grad (the generated header of its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGaussianNllLossGradGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* input, const aclTensor* target, const aclTensor* var, bool full, double eps, char* reduction, const aclTensor* gradInput, const aclTensor* gradVar, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGaussianNllLossGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_GRAD_H_ */
