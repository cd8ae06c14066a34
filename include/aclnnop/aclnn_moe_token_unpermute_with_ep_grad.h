/*
 * npusim: aclnnMoeTokenUnpermuteWithEpGrad: the gradients of MoeTokenUnpermuteWithEp.
 * Parameters in the order of hicann/ops-transformer moe/moe_token_unpermute_with_ep_grad (op definition and
 * example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteWithEpGradGetWorkspaceSize(
    const aclTensor* unpermutedTokensGrad, const aclTensor* sortedIndices,
    const aclTensor* permutedTokensOptional, const aclTensor* probsOptional, bool paddedMode,
    const aclIntArray* restoreShapeOptional, const aclIntArray* rangeOptional, int64_t topkNum,
    const aclTensor* permutedTokensGradOut, const aclTensor* probsGradOutOptional, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteWithEpGrad(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_GRAD_H_ */
