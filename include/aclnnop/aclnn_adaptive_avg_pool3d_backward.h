/*
 * npusim: aclnnAdaptiveAvgPool3dBackward, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn pooling/adaptive_avg_pool3d_grad (op_api/aclnn_adaptive_avg_pool3d_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveAvgPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdaptiveAvgPool3dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_BACKWARD_H_ */
