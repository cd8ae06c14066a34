/*
 * npusim: aclnnMin, the minimum of all elements of self.
 * Declarations as in hicann/ops-math math/reduce_min/op_api/aclnn_min.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MIN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MIN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MIN_H_ */
