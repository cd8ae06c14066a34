/*
 * npusim: aclnnGroupedMatmulFinalizeRouting: a quantised grouped matmul whose rows are scattered
 * back to tokens: out[rowIndex[i]] += logit[i] · y_i, out initialised with the weighted shared input.
 * Declarations as in hicann/ops-transformer gmm/grouped_matmul_finalize_routing
 * op_host/op_api/aclnn_grouped_matmul_finalize_routing.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupedMatmulFinalizeRoutingGetWorkspaceSize(
    const aclTensor* x, aclTensor* w, const aclTensor* scaleOptional, const aclTensor* biasOptional,
    const aclTensor* pertokenScaleOptional, const aclTensor* groupListOptional,
    const aclTensor* sharedInputOptional, const aclTensor* logitOptional, const aclTensor* rowIndexOptional,
    int64_t dtype, float sharedInputWeight, int64_t sharedInputOffset, bool transposeX, bool transposeW,
    int64_t groupListType, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupedMatmulFinalizeRouting(void* workspace, uint64_t workspaceSize,
                                                        aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_H_
