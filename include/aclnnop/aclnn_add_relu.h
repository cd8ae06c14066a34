/*
 * npusim: aclnnAddRelu, aclnnInplaceAddRelu: relu(self + alpha * other) (runtime/aclnn/ops/add_relu.cpp).
 * Declarations as in hicann/ops-nn activation/relu/op_api/aclnn_add_relu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RELU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddReluGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceAddReluGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, aclScalar* alpha, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceAddRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_RELU_H_ */
