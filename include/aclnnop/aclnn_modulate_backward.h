/*
 * npusim: aclnnModulateBackward (runtime/aclnn/ops/vfusion.cpp).
 * Declarations as in hicann/ops-nn vfusion/modulate_grad (docs/aclnnModulateBackward.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MODULATE_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MODULATE_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnModulateBackwardGetWorkspaceSize(
    const aclTensor* grad_output, const aclTensor* input, const aclTensor* scale, const aclTensor* shift,
    const aclTensor* grad_input, const aclTensor* grad_scale, const aclTensor* grad_shift,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnModulateBackward(void* workspaceAddr, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MODULATE_BACKWARD_H_ */
