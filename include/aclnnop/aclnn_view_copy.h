/*
 * npusim: aclnnViewCopy: one strided view copied into another (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/view_copy/op_host/view_copy_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_VIEW_COPY_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_VIEW_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnViewCopyGetWorkspaceSize(const aclTensor* dst, const aclTensor* dstSize, const aclTensor* dstStride, const aclTensor* dstStorageOffset, const aclTensor* src, const aclTensor* srcSize, const aclTensor* srcStride, const aclTensor* srcStorageOffset, const aclTensor* dstOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnViewCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_VIEW_COPY_H_ */
