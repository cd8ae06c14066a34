/*
 * npusim: aclnnLeakyRelu / aclnnInplaceLeakyRelu, elementwise (runtime/aclnn/ops/unary_params.cpp).
 * Declarations as in hicann/ops-nn activation/leaky_relu.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeakyRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* negativeSlope, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceLeakyRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_H_ */
