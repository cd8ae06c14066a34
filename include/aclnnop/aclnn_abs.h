/*
 * npusim: aclnnAbs, elementwise |self|.
 * Declarations as in hicann/ops-math math/abs/op_api/aclnn_abs.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ABS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ABS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAbs(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ABS_H_ */
