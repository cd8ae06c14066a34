/*
 * npusim: aclnnReduceSumV2, the reduction of x along one axis.
 * Declarations as in hicann/ops-math experimental/math/reduce_sum_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_SUM_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_SUM_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReduceSumV2GetWorkspaceSize(const aclTensor* x, int64_t axes, int64_t keepdims, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReduceSumV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_SUM_V2_H_ */
