/*
 * npusim: aclnnTriu, aclnnInplaceTriu: the upper triangle of the last two dimensions (runtime/aclnn/ops/triangle.cpp).
 * Declarations as in hicann/ops-math conversion/triu/op_api/aclnn_triu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTriu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceTriu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIU_H_ */
