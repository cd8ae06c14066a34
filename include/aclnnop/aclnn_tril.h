/*
 * npusim: aclnnTril, aclnnInplaceTril: the lower triangle of the last two dimensions (runtime/aclnn/ops/triangle.cpp).
 * Declarations as in hicann/ops-math conversion/tril/op_api/aclnn_tril.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIL_H_ */
