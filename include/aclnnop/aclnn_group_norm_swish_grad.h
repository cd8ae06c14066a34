/*
 * npusim: aclnnGroupNormSwishGrad: gradients of aclnnGroupNormSwish
 * Declarations as in hicann/ops-nn norm/group_norm_swish_grad docs/aclnnGroupNormSwishGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SWISH_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SWISH_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormSwishGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* mean, const aclTensor* rstd, const aclTensor* x, const aclTensor* gamma, const aclTensor* beta, int64_t numGroups, char* dataFormatOptional, double swishScale, bool dgammaIsRequire, bool dbetaIsRequire, const aclTensor* dxOut, const aclTensor* dgammaOut, const aclTensor* dbetaOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupNormSwishGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SWISH_GRAD_H_ */
