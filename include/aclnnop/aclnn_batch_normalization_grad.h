/*
 * npusim: aclnnBatchNormalizationGrad: training batch-norm gradients from saveMean and saveInvstd
 * Declarations as in hicann/ops-nn experimental/norm/batch_normalization_grad (op_host/batch_normalization_grad_def.cpp: inputs, attribute, outputs).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORMALIZATION_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORMALIZATION_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormalizationGradGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclTensor* saveMean, const aclTensor* saveInvstd, float epsilon, const aclTensor* gradInput, const aclTensor* gradWeight, const aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNormalizationGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORMALIZATION_GRAD_H_ */
