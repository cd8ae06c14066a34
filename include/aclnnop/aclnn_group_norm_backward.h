/*
 * npusim: aclnnGroupNormBackward: gradients of aclnnGroupNorm
 * Declarations as in hicann/ops-nn norm/group_norm_grad docs/aclnnGroupNormBackward.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H_

#include <array>  /* as the public header: its examples use std::array through it */

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input, const aclTensor* mean, const aclTensor* rstd, const aclTensor* gamma, int64_t N, int64_t C, int64_t HxW, int64_t group, const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradGammaOut, aclTensor* gradBetaOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H_ */
