/*
 * npusim: aclnnL1Loss, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn loss/lp_loss (op_api/aclnn_l1_loss.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_L1_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_L1_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_L1_LOSS_H_ */
