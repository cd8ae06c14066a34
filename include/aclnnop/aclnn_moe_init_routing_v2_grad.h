/*
 * npusim: aclnnMoeInitRoutingV2Grad: the gradient of MoeInitRoutingV2, each token's expanded
 * copies summed back. Declarations as in hicann/ops-transformer moe/moe_init_routing_v2_grad
 * (op_host/op_api header and README).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_V2_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_V2_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeInitRoutingV2GradGetWorkspaceSize(const aclTensor* gradExpandedX,
                                                                const aclTensor* expandedRowIdx, int64_t topK,
                                                                int64_t dropPadMode, int64_t activeNum,
                                                                const aclTensor* out, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeInitRoutingV2Grad(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_INIT_ROUTING_V2_GRAD_H_ */
