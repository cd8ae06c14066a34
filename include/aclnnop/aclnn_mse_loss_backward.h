/*
 * npusim: aclnnMseLossBackward, a loss gradient (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn loss/mse_loss_grad_v2 (op_host/op_api/aclnn_mse_loss_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMseLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H_ */
