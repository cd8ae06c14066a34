/*
 * npusim: aclnnSquaredRelu, elementwise (runtime/aclnn/ops/unary_math.cpp).
 * Declarations as in hicann/ops-nn activation/squared_relu.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SQUARED_RELU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SQUARED_RELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSquaredReluGetWorkspaceSize(const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSquaredRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SQUARED_RELU_H_ */
