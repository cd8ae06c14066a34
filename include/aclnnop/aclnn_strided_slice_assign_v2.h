/*
 * npusim: aclnnStridedSliceAssignV2: assigns a tensor to a strided slice in place.
 * Declarations as in hicann/ops-math conversion/strided_slice_assign_v2/docs/aclnnStridedSliceAssignV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_STRIDED_SLICE_ASSIGN_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_STRIDED_SLICE_ASSIGN_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnStridedSliceAssignV2GetWorkspaceSize(aclTensor* varRef, const aclTensor* inputValue, const aclIntArray* begin, const aclIntArray* end, const aclIntArray* strides, const aclIntArray* axesOptional, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnStridedSliceAssignV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_STRIDED_SLICE_ASSIGN_V2_H_ */
