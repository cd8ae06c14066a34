/*
 * npusim: aclnnGeluBackwardV2, an activation's gradient (runtime/aclnn/ops/activation_grads.cpp).
 * Declarations as in hicann/ops-nn activation/gelu_grad_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, char* approximate, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluBackwardV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H_ */
