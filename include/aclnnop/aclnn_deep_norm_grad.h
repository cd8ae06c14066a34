/*
 * npusim: aclnnDeepNormGrad: gradients of aclnnDeepNorm
 * Declarations as in hicann/ops-nn norm/deep_norm_grad docs/aclnnDeepNormGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEEP_NORM_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEEP_NORM_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDeepNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* gx, const aclTensor* gamma, const aclTensor* mean, const aclTensor* rstd, double alpha, const aclTensor* dxOut, const aclTensor* dgxOut, const aclTensor* dbetaOut, const aclTensor* dgammaOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDeepNormGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEEP_NORM_GRAD_H_ */
