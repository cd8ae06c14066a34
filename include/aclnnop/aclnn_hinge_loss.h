/*
 * npusim: aclnnHingeLoss, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/hinge_loss (docs/aclnnHingeLoss.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HINGE_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HINGE_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHingeLossGetWorkspaceSize(const aclTensor* predict, const aclTensor* target, const aclTensor* loss, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHingeLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HINGE_LOSS_H_ */
