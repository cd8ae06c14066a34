/*
 * npusim: aclnnApplyProximalGradientDescent (runtime/aclnn/ops/optim_steps.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn experimental/optim/apply_proximal_gradient_descent/README.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_PROXIMAL_GRADIENT_DESCENT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_PROXIMAL_GRADIENT_DESCENT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyProximalGradientDescentGetWorkspaceSize(const aclTensor* var, const aclTensor* alpha, const aclTensor* l1, const aclTensor* l2, const aclTensor* delta, aclTensor* varOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyProximalGradientDescent(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_PROXIMAL_GRADIENT_DESCENT_H_ */
