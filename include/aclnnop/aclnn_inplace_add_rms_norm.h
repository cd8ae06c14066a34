/*
 * npusim: aclnnInplaceAddRmsNorm: aclnnAddRmsNorm writing y into x1Ref and x1 + x2 into x2Ref
 * Declarations as in hicann/ops-nn norm/inplace_add_rms_norm docs/aclnnInplaceAddRmsNorm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceAddRmsNormGetWorkspaceSize(aclTensor* x1Ref, aclTensor* x2Ref, const aclTensor* gamma, double epsilon, const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceAddRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H_ */
