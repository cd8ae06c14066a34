/*
 * npusim: aclnnReluGradV4, gradOutput where the uint8 mask self is not 0, else 0.
 * Declarations as in hicann/ops-nn experimental/activation/relu_grad_v4/op_host/op_api/aclnn_relu_grad_v4.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_GRAD_V4_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_GRAD_V4_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReluGradV4GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* threshold, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReluGradV4(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_GRAD_V4_H_ */
