/*
 * npusim: aclnnLeakyReluGradV2, dy * (x > 0 ? 1 : negativeSlope).
 * Declarations as in hicann/ops-nn experimental/activation/leaky_relu_grad_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_GRAD_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_GRAD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeakyReluGradV2GetWorkspaceSize(const aclTensor* dy, const aclTensor* x, double negativeSlope, const aclTensor* dx, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeakyReluGradV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKY_RELU_GRAD_V2_H_ */
