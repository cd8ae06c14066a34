/*
 * npusim: aclnnDeepNorm: x' = alpha * x + gx, y = (x' - mean) / sqrt(var + epsilon) * gamma + beta
 * Declarations as in hicann/ops-nn norm/deep_norm docs/aclnnDeepNorm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEEP_NORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEEP_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDeepNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gx, const aclTensor* beta, const aclTensor* gamma, double alpha, double epsilon, const aclTensor* meanOut, const aclTensor* rstdOut, const aclTensor* yOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDeepNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEEP_NORM_H_ */
