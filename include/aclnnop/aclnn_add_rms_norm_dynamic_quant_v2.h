/*
 * npusim: aclnnAddRmsNormDynamicQuantV2: AddRmsNormDynamicQuant with beta and an output mask.
 * Declarations as in hicann/ops-nn norm/add_rms_norm_dynamic_quant docs/aclnnAddRmsNormDynamicQuantV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* smoothScale1Optional,
    const aclTensor* smoothScale2Optional, const aclTensor* betaOptional, double epsilon,
    const aclBoolArray* outputMaskOptional, aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut,
    aclTensor* scale1Out, aclTensor* scale2Out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddRmsNormDynamicQuantV2(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_DYNAMIC_QUANT_V2_H_ */
