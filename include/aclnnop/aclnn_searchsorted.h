/*
 * npusim: aclnnSearchSorted and aclnnSearchSorteds, insertion points into sorted rows.
 * Declarations as in hicann/ops-math math/search_sorted/op_api/aclnn_searchsorted.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SEARCHSORTED_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SEARCHSORTED_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor* sortedSequence, const aclTensor* self, bool outInt32, bool right, const aclTensor* sorter, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSearchSorted(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnSearchSortedsGetWorkspaceSize(const aclTensor* sortedSequence, const aclScalar* self, const bool outInt32, const bool right, const aclTensor* sorter, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSearchSorteds(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SEARCHSORTED_H_ */
