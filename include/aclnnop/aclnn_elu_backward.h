/*
 * npusim: aclnnEluBackward, an activation's gradient (runtime/aclnn/ops/activation_grads.cpp).
 * Declarations as in hicann/ops-nn activation/elu_grad_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclScalar* alpha, const aclScalar* scale, const aclScalar* inputScale, bool isResult, const aclTensor* selfOrResult, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_BACKWARD_H_ */
