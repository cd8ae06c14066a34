/*
 * npusim: aclnnMoeTokenPermute: copies every token once per chosen expert, ordered by expert.
 * Declarations as in hicann/ops-transformer moe/moe_token_permute (README, example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenPermuteGetWorkspaceSize(const aclTensor* tokens, const aclTensor* indices,
                                                           int64_t numOutTokens, bool paddedMode,
                                                           const aclTensor* permuteTokensOut,
                                                           const aclTensor* sortedIndicesOut,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_H_ */
