/*
 * npusim: aclnnSortV2, x sorted along axis with the index input carried along.
 * Declarations as in hicann/ops-math experimental/math/sort_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSortV2GetWorkspaceSize(const aclTensor* x, const aclTensor* index, const aclTensor* y, int64_t axis, bool descending, const aclTensor* dstIndex, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSortV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_V2_H_ */
