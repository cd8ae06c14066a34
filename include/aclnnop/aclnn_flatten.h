/*
 * npusim: aclnnFlatten: a 2D view of self around an axis.
 * Declarations as in hicann/ops-math conversion/flatten/op_host/op_api/aclnn_flatten.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLATTEN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLATTEN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor* self, int64_t axis, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFlatten(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLATTEN_H_ */
