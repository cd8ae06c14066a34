/*
 * npusim: aclnnFusedAdamw (runtime/aclnn/ops/optim_fused.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn optim/fused_adamw/docs/aclnnFusedAdamw.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_ADAMW_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_ADAMW_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedAdamwGetWorkspaceSize(const aclTensorList* paramsRef, const aclTensorList* grads, const aclTensorList* expAvgsRef, const aclTensorList* expAvgSqsRef, const aclTensorList* maxExpAvgSqsRef, const aclTensorList* stateSteps, const aclTensor* gradScaleOptional, const aclTensor* foundInfOptional, double lr, double beta1, double beta2, double weightDecay, double eps, bool amsgrad, bool maximize, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedAdamw(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_ADAMW_H_ */
