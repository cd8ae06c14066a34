/*
 * npusim: aclnnCircularPad2dBackward: gradient of the circular pad.
 * Declarations as in hicann/ops-math conversion/circular_pad_grad/op_api/aclnn_circular_pad2d_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CIRCULAR_PAD2D_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CIRCULAR_PAD2D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCircularPad2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* padding, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCircularPad2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CIRCULAR_PAD2D_BACKWARD_H_ */
