/*
 * npusim: aclnnMoeTokenPermuteWithEp: MoeTokenPermute keeping the slice [range) of the sorted copies
 * (one expert-parallel rank's experts), with their probs. Parameters in the order of
 * hicann/ops-transformer moe/moe_token_permute_with_ep (op definition and example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_EP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_EP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenPermuteWithEpGetWorkspaceSize(
    const aclTensor* tokens, const aclTensor* indices, const aclTensor* probsOptional,
    const aclIntArray* rangeOptional, int64_t numOutTokens, bool paddedMode,
    const aclTensor* permuteTokensOut, const aclTensor* sortedIndicesOut,
    const aclTensor* permuteProbsOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenPermuteWithEp(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_EP_H_ */
