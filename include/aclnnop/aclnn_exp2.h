/*
 * npusim: aclnnExp2 and aclnnInplaceExp2, 2 ^ self.
 * Declarations as in hicann/ops-math math/pow/op_api/aclnn_exp2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXP2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXP2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnExp2GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnExp2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceExp2GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceExp2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXP2_H_ */
