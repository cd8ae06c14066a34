/*
 * npusim: aclnnMoeGatingTopK: sigmoid or softmax of the router logits, then the top k experts
 * among the kGroup best groups (DeepSeek-V3 routing), weights renormalised and scaled.
 * Declarations as in hicann/ops-transformer moe/moe_gating_top_k docs/aclnnMoeGatingTopK.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeGatingTopKGetWorkspaceSize(
    const aclTensor* x, const aclTensor* biasOptional, int64_t k, int64_t kGroup, int64_t groupCount,
    int64_t groupSelectMode, int64_t renorm, int64_t normType, bool outFlag, double routedScalingFactor,
    double eps, const aclTensor* yOut, const aclTensor* expertIdxOut, const aclTensor* outOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeGatingTopK(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_H_ */
