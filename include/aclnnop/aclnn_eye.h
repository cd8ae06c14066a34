/*
 * npusim: aclnnEye: the identity matrix.
 * Declarations as in hicann/ops-math math/eye/op_api/aclnn_eye.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EYE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EYE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEyeGetWorkspaceSize(int64_t n, int64_t m, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEye(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EYE_H_ */
