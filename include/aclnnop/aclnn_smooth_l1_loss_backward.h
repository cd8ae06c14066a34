/*
 * npusim: aclnnSmoothL1LossBackward, a loss gradient (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/smooth_l1_loss_grad_v2 (op_host/op_api/aclnn_smooth_l1_loss_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self, const aclTensor* target, int64_t reduction, float beta, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_ */
