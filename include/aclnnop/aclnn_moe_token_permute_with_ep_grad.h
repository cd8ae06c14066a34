/*
 * npusim: aclnnMoeTokenPermuteWithEpGrad: the gradient of MoeTokenPermuteWithEp.
 * Parameters in the order of hicann/ops-transformer moe/moe_token_permute_with_ep_grad (op definition and
 * example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_EP_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_EP_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenPermuteWithEpGradGetWorkspaceSize(
    const aclTensor* permutedTokensOutputGrad, const aclTensor* sortedIndices,
    const aclTensor* permutedProbsOutputGradOptional, int64_t numTopk, const aclIntArray* rangeOptional,
    bool paddedMode, const aclTensor* tokenGradOut, const aclTensor* probsGradOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenPermuteWithEpGrad(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_EP_GRAD_H_ */
