/*
 * npusim: aclnnBitwiseNot, elementwise (runtime/aclnn/ops/unary_math.cpp).
 * Declarations as in hicann/ops-math math/bitwise_not/op_api/aclnn_bitwise_not.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_NOT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_NOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBitwiseNot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_NOT_H_ */
