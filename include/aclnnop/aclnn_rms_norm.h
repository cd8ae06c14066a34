/*
 * npusim: aclnnRmsNorm: y = x / sqrt(mean(x^2) + epsilon) * gamma, rstd = 1 / sqrt(...).
 * Declarations as in hicann/ops-nn norm/rms_norm docs/aclnnRmsNorm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* yOut, const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_H_ */
