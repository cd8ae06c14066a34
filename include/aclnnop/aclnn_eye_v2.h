/*
 * npusim: aclnnEyeV2: identity matrices (custom operator).
 * Declarations as in hicann/ops-math experimental/math/eye_v2/op_host/eye_v2_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EYE_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EYE_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEyeV2GetWorkspaceSize(const aclTensor* x, int64_t rows, int64_t cols, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEyeV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EYE_V2_H_ */
