/*
 * npusim: aclnnHardSigmoidGradV2, gradOutput / 6 where -3 < self < 3, else 0.
 * Declarations as in hicann/ops-nn experimental/activation/hard_sigmoid_grad_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SIGMOID_GRAD_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SIGMOID_GRAD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardSigmoidGradV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardSigmoidGradV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SIGMOID_GRAD_V2_H_ */
