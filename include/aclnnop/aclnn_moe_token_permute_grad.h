/*
 * npusim: aclnnMoeTokenPermuteGrad: the gradient of MoeTokenPermute (each token's copies summed).
 * Declarations as in hicann/ops-transformer moe/moe_token_permute_grad (README, example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenPermuteGradGetWorkspaceSize(const aclTensor* permutedOutputGrad,
                                                               const aclTensor* sortedIndices,
                                                               int64_t numTopk, bool paddedMode,
                                                               const aclTensor* out, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenPermuteGrad(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_GRAD_H_ */
