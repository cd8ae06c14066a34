/*
 * npusim: aclnnSoftMarginLoss, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn loss/soft_margin_loss (op_api/aclnn_soft_margin_loss.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftMarginLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftMarginLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_H_ */
