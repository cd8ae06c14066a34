/*
 * npusim: aclnnCrossEntropyLoss, a loss over a class dimension (runtime/aclnn/ops/class_losses.cpp).
 * Declarations as in hicann/ops-nn loss/cross_entropy_loss (docs/aclnnCrossEntropyLoss.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional, int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss, const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut, const aclTensor* lseForZlossOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCrossEntropyLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H_ */
