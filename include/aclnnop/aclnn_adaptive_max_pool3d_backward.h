/*
 * npusim: aclnnAdaptiveMaxPool3dBackward, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn pooling/adaptive_max_pool3d_grad (op_api/aclnn_adaptive_max_pool3d_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL3D_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL3D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdaptiveMaxPool3dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL3D_BACKWARD_H_ */
