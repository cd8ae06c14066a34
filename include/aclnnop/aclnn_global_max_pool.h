/*
 * npusim: aclnnGlobalMaxPool, the maximum over the spatial dimensions.
 * Declarations as in hicann/ops-math math/reduce_max/op_api/aclnn_global_max_pool.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLOBAL_MAX_POOL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLOBAL_MAX_POOL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGlobalMaxPoolGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGlobalMaxPool(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLOBAL_MAX_POOL_H_ */
