/*
 * npusim: aclnnL2Loss, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/l2_loss (the generated header of its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_L2_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_L2_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnL2LossGetWorkspaceSize(const aclTensor* x, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnL2Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_L2_LOSS_H_ */
