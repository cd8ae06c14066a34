/*
 * npusim: aclnnBitwiseOrScalar and their in-place forms (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-math math/bitwise_or.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_OR_SCALAR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_OR_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBitwiseOrScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBitwiseOrScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceBitwiseOrScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseOrScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_OR_SCALAR_H_ */
