/*
 * npusim: aclnnGroupedMatmulFinalizeRoutingV2: aclnnGroupedMatmulFinalizeRouting with offset and
 * the (not enabled) antiquant arguments.
 * Declarations as in hicann/ops-transformer gmm/grouped_matmul_finalize_routing
 * op_host/op_api/aclnn_grouped_matmul_finalize_routing_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupedMatmulFinalizeRoutingV2GetWorkspaceSize(
    const aclTensor* x1, aclTensor* x2, const aclTensor* scaleOptional, const aclTensor* biasOptional,
    const aclTensor* offsetOptional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* pertokenScaleOptional,
    const aclTensor* groupListOptional, const aclTensor* sharedInputOptional, const aclTensor* logitOptional,
    const aclTensor* rowIndexOptional, int64_t dtype, float sharedInputWeight, int64_t sharedInputOffset,
    bool transposeX1, bool transposeX2, int64_t groupListType, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupedMatmulFinalizeRoutingV2(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_V2_H_
