/*
 * npusim: aclnnMaxPool2dWithIndices and aclnnMaxPool2dWithMask, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn pooling/max_pool3d_with_argmax_v2 (op_api/aclnn_max_pool2d_with_indices.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* out, aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool2dWithMask(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* out, aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool2dWithIndices(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_ */
