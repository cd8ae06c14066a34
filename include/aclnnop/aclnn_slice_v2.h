/*
 * npusim: aclnnSliceV2: slices along axes with steps.
 * Declarations as in hicann/ops-math conversion/strided_slice_v3/op_api/aclnn_slice_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLICE_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLICE_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* starts, const aclIntArray* ends, const aclIntArray* axes, const aclIntArray* steps, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSliceV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLICE_V2_H_ */
