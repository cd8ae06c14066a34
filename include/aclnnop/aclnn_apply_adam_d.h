/*
 * npusim: aclnnApplyAdamD (runtime/aclnn/ops/optim_steps.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn experimental/optim/apply_adam_d/docs/aclnnApplyAdamD.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ADAM_D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ADAM_D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyAdamDGetWorkspaceSize(const aclTensor* var, const aclTensor* m, const aclTensor* v, const aclTensor* beta1Power, const aclTensor* beta2Power, const aclTensor* lr, const aclTensor* beta1, const aclTensor* beta2, const aclTensor* epsilon, const aclTensor* grad, bool useLocking, bool useNesterov, aclTensor* varOut, aclTensor* mOut, aclTensor* vOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyAdamD(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ADAM_D_H_ */
