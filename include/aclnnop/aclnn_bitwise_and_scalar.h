/*
 * npusim: aclnnBitwiseAndScalar and their in-place forms (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-math math/bitwise_and.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBitwiseAndScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBitwiseAndScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndScalarGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H_ */
