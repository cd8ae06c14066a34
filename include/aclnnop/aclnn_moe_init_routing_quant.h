/*
 * npusim: aclnnMoeInitRoutingQuant: MoeInitRouting with the gathered rows quantised to int8
 * (x * scale + offset). Parameters in the order of hicann/ops-transformer moe/moe_init_routing_quant
 * (op definition and example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeInitRoutingQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* rowIdx, const aclTensor* expertIdx, int64_t activeNum, double scale,
    double offset, const aclTensor* expandedXOut, const aclTensor* expandedRowIdxOut,
    const aclTensor* expandedExpertIdxOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeInitRoutingQuant(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_H_ */
