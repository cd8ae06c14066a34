/*
 * npusim: aclnnHardShrinkGrad, gradOutput where |self| > lambd, else 0.
 * Declarations as in hicann/ops-nn experimental/activation/hard_shrink_grad (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SHRINK_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SHRINK_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardShrinkGradGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, double lambd, const aclTensor* output, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardShrinkGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SHRINK_GRAD_H_ */
