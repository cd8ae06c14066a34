/*
 * npusim: aclnnStridedSlice: a 2-D strided slice (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/strided_slice/op_host/strided_slice_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_STRIDED_SLICE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_STRIDED_SLICE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnStridedSliceGetWorkspaceSize(const aclTensor* x, int64_t start1, int64_t start2, int64_t end1, int64_t end2, int64_t stride1, int64_t stride2, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnStridedSlice(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_STRIDED_SLICE_H_ */
