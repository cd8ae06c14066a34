/*
 * npusim: aclnnAcosGrad (runtime/aclnn/ops/inverse_trig_grads.cpp).
 * Declarations as in hicann/ops-math experimental/math/acos_grad.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ACOS_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ACOS_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAcosGradGetWorkspaceSize(const aclTensor* y_grad, const aclTensor* x, const aclTensor* x_grad, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAcosGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ACOS_GRAD_H_ */
