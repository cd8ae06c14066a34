/*
 * npusim: aclnnGroupNormalizationGrad: dx of a group norm over x's first two dimensions
 * Declarations as in hicann/ops-nn experimental/norm/group_normalization_grad docs/aclnnGroupNormalizationGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORMALIZATION_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORMALIZATION_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormalizationGradGetWorkspaceSize(const aclTensor* x, const aclTensor* dy, const aclTensor* gamma, const aclTensor* mean, const aclTensor* rstd, aclTensor* dx, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupNormalizationGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORMALIZATION_GRAD_H_ */
