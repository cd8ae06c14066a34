/*
 * npusim: aclnnRmsNormGrad: the gradients dx and dgamma of aclnnRmsNorm from dy, x, rstd and gamma
 * Declarations as in hicann/ops-nn norm/rms_norm_grad docs/aclnnRmsNormGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd, const aclTensor* gamma, const aclTensor* dxOut, const aclTensor* dgammaOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRmsNormGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RMS_NORM_GRAD_H_ */
