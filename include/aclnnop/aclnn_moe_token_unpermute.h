/*
 * npusim: aclnnMoeTokenUnpermute: each token's expert outputs, weighted by probs, summed back.
 * Declarations as in hicann/ops-transformer moe/moe_token_unpermute (README, example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteGetWorkspaceSize(const aclTensor* permutedTokens,
                                                             const aclTensor* sortedIndices,
                                                             const aclTensor* probsOptional, bool paddedMode,
                                                             const aclIntArray* restoreShapeOptional,
                                                             const aclTensor* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenUnpermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_H_ */
