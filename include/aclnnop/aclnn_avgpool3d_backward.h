/*
 * npusim: aclnnAvgPool3dBackward, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn pooling/avg_pool3_d_grad (op_api/aclnn_avgpool3d_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AVGPOOL3D_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AVGPOOL3D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAvgPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding, bool ceilMode, bool countIncludePad, int64_t divisorOverride, aclTensor* output, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAvgPool3dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AVGPOOL3D_BACKWARD_H_ */
