/*
 * npusim: aclnnMaxPool3dWithArgmax, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn pooling/max_pool3d_with_argmax_v2 (op_api/aclnn_max_pool3d_with_argmax.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPool3dWithArgmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* out, aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool3dWithArgmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL3D_WITH_ARGMAX_H_ */
