/*
 * npusim: aclnnHardswishBackwardV2, gradOutput times the hardswish derivative (0 at -3, 1 at 3).
 * Declarations as in hicann/ops-nn activation/hard_swish_grad_v2/op_api/aclnn_hardswish_backward_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSWISH_BACKWARD_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSWISH_BACKWARD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardswishBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardswishBackwardV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSWISH_BACKWARD_V2_H_ */
