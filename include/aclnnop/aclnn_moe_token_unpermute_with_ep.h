/*
 * npusim: aclnnMoeTokenUnpermuteWithEp: MoeTokenUnpermute of one expert-parallel rank's slice [range).
 * Parameters in the order of hicann/ops-transformer moe/moe_token_unpermute_with_ep (op definition and
 * example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(
    const aclTensor* permutedTokens, const aclTensor* sortedIndices, const aclTensor* probsOptional,
    int64_t numTopk, const aclIntArray* rangeOptional, bool paddedMode,
    const aclIntArray* restoreShapeOptional, const aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteWithEp(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_H_ */
