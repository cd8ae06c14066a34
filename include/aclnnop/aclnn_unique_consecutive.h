/*
 * npusim: aclnnUniqueConsecutive: runs of equal values merged.
 * Declarations as in hicann/ops-nn index/unique_consecutive/op_api/aclnn_unique_consecutive.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUniqueConsecutiveGetWorkspaceSize(const aclTensor* self, bool returnInverse, bool returnCounts, int64_t dim, aclTensor* valueOut, aclTensor* inverseOut, aclTensor* countsOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnUniqueConsecutive(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_UNIQUE_CONSECUTIVE_H_ */
