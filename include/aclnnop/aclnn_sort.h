/*
 * npusim: aclnnSort, self sorted along dim with the indices of the sorted values.
 * Declarations as in hicann/ops-math math/sort/op_api/aclnn_sort.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim, bool descending, aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSort(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SORT_H_ */
