/*
 * npusim: aclnnMoeComputeExpertTokens: for each expert, the end (exclusive) of its rows in the sorted
 * expert list. Declarations as in hicann/ops-transformer moe/moe_compute_expert_tokens.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_COMPUTE_EXPERT_TOKENS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_COMPUTE_EXPERT_TOKENS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeComputeExpertTokensGetWorkspaceSize(const aclTensor* sortedExperts,
                                                                  int64_t numExperts, const aclTensor* out,
                                                                  uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeComputeExpertTokens(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_COMPUTE_EXPERT_TOKENS_H_ */
