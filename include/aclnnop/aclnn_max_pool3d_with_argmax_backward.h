/*
 * npusim: aclnnMaxPool3dWithArgmaxBackward, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn pooling/max_pool3d_grad_with_argmax (op_api/aclnn_max_pool3d_with_argmax_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPool3dWithArgmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool3dWithArgmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_BACKWARD_H_ */
