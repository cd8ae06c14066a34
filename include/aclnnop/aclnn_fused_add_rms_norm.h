/*
 * npusim: aclnnFusedAddRmsNorm: x = x1 * scale + x2, y = x / sqrt(mean(x^2) + epsilon) * gamma
 * Declarations as in hicann/ops-nn experimental/norm/fused_add_rms_norm docs/aclnnFusedAddRmsNorm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_ADD_RMS_NORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, double epsilon, double scale, const aclTensor* yOut, const aclTensor* rstdOut, const aclTensor* xOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedAddRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_ADD_RMS_NORM_H_ */
