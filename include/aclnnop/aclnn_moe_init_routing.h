/*
 * npusim: aclnnMoeInitRouting: sorts the k expert choices of each row by expert and gathers the rows
 * in that order. Declarations as in hicann/ops-transformer moe/moe_init_routing (README, example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeInitRoutingGetWorkspaceSize(const aclTensor* x, const aclTensor* rowIdx,
                                                          const aclTensor* expertIdx, int64_t activeNum,
                                                          const aclTensor* expandedXOut,
                                                          const aclTensor* expandedRowIdxOut,
                                                          const aclTensor* expandedExpertIdxOut,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeInitRouting(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_H_ */
