/*
 * npusim: aclnnSliceV3: a block of x at begin of the given size (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/slice_v3/op_host/slice_v3_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLICE_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLICE_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSliceV3GetWorkspaceSize(const aclTensor* x, const aclIntArray* begin, const aclIntArray* size, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSliceV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLICE_V3_H_ */
