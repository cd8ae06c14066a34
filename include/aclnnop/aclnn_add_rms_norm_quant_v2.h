/*
 * npusim: aclnnAddRmsNormQuantV2: AddRmsNormQuant with beta and the RMS-norm output.
 * Declarations as in hicann/ops-nn norm/add_rms_norm_quant_v2 docs/aclnnAddRmsNormQuantV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_QUANT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddRmsNormQuantV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* scales1,
    const aclTensor* scales2Optional, const aclTensor* zeroPoints1Optional,
    const aclTensor* zeroPoints2Optional, const aclTensor* betaOptional, int64_t axis, double epsilon,
    bool divMode, aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut, aclTensor* rmsNormOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddRmsNormQuantV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_QUANT_V2_H_ */
