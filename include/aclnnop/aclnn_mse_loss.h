/*
 * npusim: aclnnMseLoss, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn loss/mse_loss_v2 and experimental/loss/mse_loss (op_host/op_api/aclnn_mse_loss.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMseLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_H_ */
