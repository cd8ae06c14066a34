/*
 * npusim: aclnnMaxV2, the maximum of self over dims.
 * Declarations as in hicann/ops-math math/reduce_max/op_api/aclnn_max_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims, bool noopWithEmptyDims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_V2_H_ */
