/*
 * npusim: aclnnLogicalOr / aclnnInplaceLogicalOr (runtime/aclnn/ops/binary_predicates.cpp).
 * Declarations as in hicann/ops-math math/logical_or.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGICAL_OR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGICAL_OR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogicalOr(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceLogicalOr(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGICAL_OR_H_ */
