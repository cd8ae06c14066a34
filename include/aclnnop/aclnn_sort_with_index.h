/*
 * npusim: aclnnSortWithIndex, x sorted along axis with the index input carried along.
 * Declarations as in hicann/ops-math experimental/math/sort_with_index/op_api/aclnn_sort_with_index.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_WITH_INDEX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_WITH_INDEX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSortWithIndexGetWorkspaceSize(const aclTensor* x, const aclTensor* index, const int64_t axis, const bool descending, const bool stable, aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSortWithIndex(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_WITH_INDEX_H_ */
