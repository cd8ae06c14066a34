/*
 * npusim: aclnnMoeInitRoutingV2: MoeInitRouting without rowIdx, with a drop/pad mode (expert capacity)
 * and per-expert token counts. Declarations as in hicann/ops-transformer moe/moe_init_routing_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeInitRoutingV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* expertIdx, int64_t activeNum, int64_t expertCapacity,
    int64_t expertNum, int64_t dropPadMode, int64_t expertTokensCountOrCumsumFlag,
    bool expertTokensBeforeCapacityFlag, const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut,
    const aclTensor* expertTokensCountOrCumsumOutOptional,
    const aclTensor* expertTokensBeforeCapacityOutOptional, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeInitRoutingV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_V2_H_ */
