/*
 * npusim: aclnnScaledMaskedSoftmaxBackward: the gradient of aclnnScaledMaskedSoftmax
 * Declarations as in hicann/ops-nn vfusion/scaled_masked_softmax_grad_v2 docs/aclnnScaledMaskedSoftmaxBackward.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask, double scale, bool fixTriuMask, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScaledMaskedSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_ */
