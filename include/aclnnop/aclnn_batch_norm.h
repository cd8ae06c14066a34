/*
 * npusim: aclnnBatchNorm: per-channel batch normalisation (training: batch statistics, running ones updated)
 * Declarations as in hicann/ops-nn norm/batch_norm_v3 docs/aclnnBatchNorm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, aclTensor* runningMean, aclTensor* runningVar, bool training, double momentum, double eps, aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_H_ */
