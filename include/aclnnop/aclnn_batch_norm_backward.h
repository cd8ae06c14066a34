/*
 * npusim: aclnnBatchNormBackward: gradients of aclnnBatchNorm
 * Declarations as in hicann/ops-nn norm/batch_norm_grad_v3 docs/aclnnBatchNormBackward.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H_

#include <array>  /* as the public header: its examples use std::array through it */

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training, double eps, const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H_ */
