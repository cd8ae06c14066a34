/*
 * npusim: aclnnTake: elements of the flattened self at indices.
 * Declarations as in hicann/ops-nn index/gather_v2/op_api/aclnn_take.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TAKE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TAKE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTakeGetWorkspaceSize(const aclTensor* self, const aclTensor* index, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTake(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TAKE_H_ */
