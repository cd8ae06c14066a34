/*
 * npusim: aclnnMoeFinalizeRoutingV2Grad: the gradients of MoeFinalizeRoutingV2 for the expert
 * outputs and the routing scales. Declarations as in hicann/ops-transformer
 * moe/moe_finalize_routing_v2_grad (op_host/op_api header and README).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_V2_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_V2_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeFinalizeRoutingV2GradGetWorkspaceSize(
    const aclTensor* gradY, const aclTensor* expandedRowIdx, const aclTensor* expandedXOptional,
    const aclTensor* scalesOptional, const aclTensor* expertIdxOptional, const aclTensor* biasOptional,
    int64_t dropPadMode, int64_t activeNum, int64_t expertNum, int64_t expertCapacity,
    const aclTensor* gradExpandedXOut, const aclTensor* gradScalesOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeFinalizeRoutingV2Grad(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_V2_GRAD_H_ */
