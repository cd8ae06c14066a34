/*
 * npusim: aclnnAmax: out = max(self, dim).
 * Declarations as in hicann/ops-math math/reduce_max/op_api/aclnn_amax.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMAX_H_ */
