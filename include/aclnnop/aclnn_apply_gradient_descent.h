/*
 * npusim: aclnnApplyGradientDescent (runtime/aclnn/ops/optim_steps.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn experimental/optim/apply_gradient_descent/docs/aclnnApplyGradientDescent.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_GRADIENT_DESCENT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_GRADIENT_DESCENT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyGradientDescentGetWorkspaceSize(aclTensor* var, const aclTensor* alpha, const aclTensor* delta, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyGradientDescent(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_GRADIENT_DESCENT_H_ */
