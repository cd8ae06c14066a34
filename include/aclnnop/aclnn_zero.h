/*
 * npusim: aclnnInplaceZero: selfRef = 0.
 * Declarations as in hicann/ops-math math/zero_op/op_api/aclnn_zero.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ZERO_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ZERO_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceZero(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ZERO_H_ */
