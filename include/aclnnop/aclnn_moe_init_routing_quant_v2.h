/*
 * npusim: aclnnMoeInitRoutingQuantV2: MoeInitRoutingV2 with the gathered rows quantised to int8,
 * statically or dynamically per row. Declarations as in hicann/ops-transformer
 * moe/moe_init_routing_quant_v2 (README and example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeInitRoutingQuantV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* expertIdx, const aclTensor* scaleOptional,
    const aclTensor* offsetOptional, int64_t activeNum, int64_t expertCapacity, int64_t expertNum,
    int64_t dropPadMode, int64_t expertTokensCountOrCumsumFlag, bool expertTokensBeforeCapacityFlag,
    int64_t quantMode, const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut,
    const aclTensor* expertTokensCountOrCumsumOutOptional,
    const aclTensor* expertTokensBeforeCapacityOutOptional, const aclTensor* dynamicQuantScaleOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeInitRoutingQuantV2(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_V2_H_ */
