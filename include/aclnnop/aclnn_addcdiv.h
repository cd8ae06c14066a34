/*
 * npusim: aclnnAddcdiv / aclnnInplaceAddcdiv (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math math/addcdiv.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDCDIV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDCDIV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2, const aclScalar* value, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddcdiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1, const aclTensor* tensor2, const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceAddcdiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDCDIV_H_ */
