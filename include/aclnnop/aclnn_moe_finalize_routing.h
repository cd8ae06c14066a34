/*
 * npusim: aclnnMoeFinalizeRouting: out = x1 + x2 + sum over k of scales * (expert output + expert bias).
 * Declarations as in hicann/ops-transformer moe/moe_finalize_routing (README, example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeFinalizeRoutingGetWorkspaceSize(
    const aclTensor* expandedX, const aclTensor* x1, const aclTensor* x2Optional, const aclTensor* bias,
    const aclTensor* scales, const aclTensor* expandedRowIdx, const aclTensor* expandedExpertIdx,
    const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeFinalizeRouting(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H_ */
