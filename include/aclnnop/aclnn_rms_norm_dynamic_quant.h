/*
 * npusim: aclnnRmsNormDynamicQuant: RMS norm then per-token dynamic quantisation.
 * Declarations as in hicann/ops-nn norm/rms_norm_dynamic_quant docs/aclnnRmsNormDynamicQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_DYNAMIC_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_DYNAMIC_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormDynamicQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* gamma, const aclTensor* smoothScalesOptional,
    const aclTensor* betaOptional, double epsilon, int64_t dstType, const aclTensor* yOut,
    const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRmsNormDynamicQuant(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_DYNAMIC_QUANT_H_ */
