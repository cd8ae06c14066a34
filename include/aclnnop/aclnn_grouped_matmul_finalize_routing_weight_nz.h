/*
 * npusim: aclnnGroupedMatmulFinalizeRoutingWeightNz: the int8 weight in FRACTAL_NZ
 * (aclnnTransMatmulWeight).
 * Declarations as in hicann/ops-transformer gmm/grouped_matmul_finalize_routing
 * op_host/op_api/aclnn_grouped_matmul_finalize_routing_weight_nz.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNzGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* scale, const aclTensor* bias,
    const aclTensor* pertokenScaleOptional, const aclTensor* groupList, const aclTensor* sharedInput,
    const aclTensor* logit, const aclTensor* rowIndex, int64_t dtype, float sharedInputWeight,
    int64_t sharedInputOffset, bool transposeX1, bool transposeX2, int64_t groupListType, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNz(void* workspace, uint64_t workspaceSize,
                                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_H_
