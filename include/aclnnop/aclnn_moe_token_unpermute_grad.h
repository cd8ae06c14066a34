/*
 * npusim: aclnnMoeTokenUnpermuteGrad: the gradients of MoeTokenUnpermute for the permuted tokens and probs.
 * Declarations as in hicann/ops-transformer moe/moe_token_unpermute_grad (README, example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteGradGetWorkspaceSize(
    const aclTensor* permutedTokens, const aclTensor* unpermutedTokensGrad, const aclTensor* sortedIndices,
    const aclTensor* probsOptional, bool paddedMode, const aclIntArray* restoreShapeOptional,
    const aclTensor* permutedTokensGradOut, const aclTensor* probsGradOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteGrad(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_GRAD_H_ */
