/*
 * npusim: aclnnLayerNormalizationGrad: dx, dgamma, dbeta of a layer norm from its saved mean and rstd
 * Declarations as in hicann/ops-nn experimental/norm/layer_normalization_grad (op_host/layer_normalization_grad_def.cpp: inputs, then outputs).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LAYER_NORMALIZATION_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LAYER_NORMALIZATION_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLayerNormalizationGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* gamma, const aclTensor* mean, const aclTensor* rstd, const aclTensor* dx, const aclTensor* dgamma, const aclTensor* dbeta, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLayerNormalizationGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LAYER_NORMALIZATION_GRAD_H_ */
