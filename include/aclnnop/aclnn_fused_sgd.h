/*
 * npusim: aclnnFusedSgd (runtime/aclnn/ops/optim_fused.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn optim/fused_sgd/docs/aclnnFusedSgd.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_SGD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_SGD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedSgdGetWorkspaceSize(const aclTensorList* paramsRef, const aclTensorList* gradsRef, const aclTensorList* momentumBufferListOptionalRef, const aclTensor* gradScaleOptional, float weightDecay, float momentum, float lr, float dampening, bool nesterov, bool maximize, bool isFirstStep, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedSgd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_SGD_H_ */
