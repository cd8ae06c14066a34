/*
 * npusim: aclnnHingeLossGrad, a loss gradient (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/hinge_loss_grad (docs/aclnnHingeLossGrad.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HINGE_LOSS_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HINGE_LOSS_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHingeLossGradGetWorkspaceSize(const aclTensor* predict, const aclTensor* target, const aclTensor* gradOutput, const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHingeLossGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HINGE_LOSS_GRAD_H_ */
