/*
 * npusim: aclnnMseLossGrad, a loss gradient (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/mse_loss_grad (the generated header of its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMseLossGradGetWorkspaceSize(const aclTensor* predict, const aclTensor* label, const aclTensor* dout, char* reduction, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMseLossGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MSE_LOSS_GRAD_H_ */
