/*
 * npusim: aclnnApplyFusedEmaAdam (runtime/aclnn/ops/optim_adam.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn optim/apply_fused_ema_adam/docs/aclnnApplyFusedEmaAdam.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_FUSED_EMA_ADAM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_FUSED_EMA_ADAM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyFusedEmaAdamGetWorkspaceSize(const aclTensor* grad, aclTensor* varRef, aclTensor* mRef, aclTensor* vRef, aclTensor* sRef, const aclTensor* step, double lr, double emaDecay, double beta1, double beta2, double eps, int64_t mode, bool biasCorrection, double weightDecay, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyFusedEmaAdam(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_FUSED_EMA_ADAM_H_ */
