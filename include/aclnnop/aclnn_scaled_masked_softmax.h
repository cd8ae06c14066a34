/*
 * npusim: aclnnScaledMaskedSoftmax: y = softmax(scale * x, masked positions at -10000) over the last dimension
 * Declarations as in hicann/ops-nn vfusion/scaled_masked_softmax_v2 docs/aclnnScaledMaskedSoftmax.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScaledMaskedSoftmaxGetWorkspaceSize(const aclTensor* x, const aclTensor* mask, double scale, bool fixTriuMask, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScaledMaskedSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_H_ */
