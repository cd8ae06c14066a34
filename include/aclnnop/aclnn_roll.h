/*
 * npusim: aclnnRoll: cyclic shift along dimensions.
 * Declarations as in hicann/ops-math conversion/roll/op_api/aclnn_roll.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROLL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROLL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRoll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROLL_H_ */
