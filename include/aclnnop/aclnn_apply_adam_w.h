/*
 * npusim: aclnnApplyAdamW (runtime/aclnn/ops/optim_steps.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn experimental/optim/apply_adam_w/docs/aclnnApplyAdamW.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ADAM_W_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ADAM_W_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyAdamWGetWorkspaceSize(aclTensor* varRef, aclTensor* mRef, aclTensor* vRef, const aclTensor* beta1Power, const aclTensor* beta2Power, const aclTensor* lr, const aclTensor* weightDecay, const aclTensor* beta1, const aclTensor* beta2, const aclTensor* eps, const aclTensor* grad, const aclTensor* maxGradNormOptional, bool amsgrad, bool maximize, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyAdamW(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ADAM_W_H_ */
