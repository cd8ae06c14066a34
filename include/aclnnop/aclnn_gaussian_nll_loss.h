/*
 * npusim: aclnnGaussianNllLoss, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/gaussian_nll_loss (the generated header of its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGaussianNllLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target, const aclTensor* var, bool full, double eps, char* reduction, const aclTensor* loss, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGaussianNllLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GAUSSIAN_NLL_LOSS_H_ */
