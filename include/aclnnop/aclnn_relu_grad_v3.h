/*
 * npusim: aclnnReluGradV3, x > 0 ? y : 0 (x the forward input, y the gradient).
 * Declarations as in hicann/ops-nn experimental/activation/relu_grad_v3 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_GRAD_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_GRAD_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReluGradV3GetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReluGradV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_GRAD_V3_H_ */
