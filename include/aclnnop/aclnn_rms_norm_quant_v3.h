/*
 * npusim: aclnnRmsNormQuantV3: RmsNormQuant with divMode and the rstd output.
 * Declarations as in hicann/ops-nn norm/rms_norm_quant_v3 docs/aclnnRmsNormQuantV3.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_QUANT_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_QUANT_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormQuantV3GetWorkspaceSize(
    const aclTensor* x, const aclTensor* gamma, const aclTensor* scale, const aclTensor* offsetOptional,
    const aclTensor* betaOptional, double epsilon, bool divMode, bool outputRstd, aclTensor* y,
    aclTensor* rstd, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRmsNormQuantV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_QUANT_V3_H_ */
