/*
 * npusim: aclnnMax, the maximum of all elements of self.
 * Declarations as in hicann/ops-math math/reduce_max/op_api/aclnn_max.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_H_ */
