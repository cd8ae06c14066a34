/*
 * npusim: aclnnAddRmsNormQuant: x1 + x2, RMS norm, then one or two static quantisations.
 * Declarations as in hicann/ops-nn norm/add_rms_norm_quant docs/aclnnAddRmsNormQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddRmsNormQuantGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* scales1,
    const aclTensor* scales2Optional, const aclTensor* zeroPoints1Optional,
    const aclTensor* zeroPoints2Optional, int64_t axis, double epsilon, bool divMode, aclTensor* y1Out,
    aclTensor* y2Out, aclTensor* xOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddRmsNormQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RMS_NORM_QUANT_H_ */
