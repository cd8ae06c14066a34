/*
 * npusim: aclnnHardswish / aclnnInplaceHardswish, elementwise (runtime/aclnn/ops/unary_math.cpp).
 * Declarations as in hicann/ops-nn activation/hard_swish.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSWISH_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSWISH_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardswish(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceHardswish(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSWISH_H_ */
