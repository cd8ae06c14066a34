/*
 * npusim: aclnnAsinWithAgent (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/asin_with_agent.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASIN_WITH_AGENT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASIN_WITH_AGENT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAsinWithAgentGetWorkspaceSize(const aclTensor* x, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAsinWithAgent(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASIN_WITH_AGENT_H_ */
