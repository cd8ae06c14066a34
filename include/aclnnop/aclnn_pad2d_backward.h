/*
 * npusim: aclnnReflectionPad2dBackward, aclnnReplicationPad2dBackward: gradients of the 2d pads.
 * Declarations as in hicann/ops-math conversion/pad_v3_grad_replicate/op_host/op_api/aclnn_pad2d_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PAD2D_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PAD2D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReflectionPad2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* padding, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReflectionPad2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnReplicationPad2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* padding, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReplicationPad2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PAD2D_BACKWARD_H_ */
