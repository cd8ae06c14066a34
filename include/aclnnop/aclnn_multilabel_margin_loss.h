/*
 * npusim: aclnnMultilabelMarginLoss, a loss over a class dimension (runtime/aclnn/ops/class_losses.cpp).
 * Declarations as in hicann/ops-nn loss/multilabel_margin_loss (op_api/aclnn_multilabel_margin_loss.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MULTILABEL_MARGIN_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MULTILABEL_MARGIN_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMultilabelMarginLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out, aclTensor* isTarget, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMultilabelMarginLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MULTILABEL_MARGIN_LOSS_H_ */
