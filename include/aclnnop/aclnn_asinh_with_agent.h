/*
 * npusim: aclnnAsinhWithAgent (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/asinh_with_agent.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASINH_WITH_AGENT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASINH_WITH_AGENT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAsinhWithAgentGetWorkspaceSize(const aclTensor* x, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAsinhWithAgent(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASINH_WITH_AGENT_H_ */
