/*
 * npusim: aclnnMaxPoolWithArgmaxV3, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn experimental/pooling/max_pool_with_argmax_v3 (the generated header of its op definition: x, kernel_size, strides, pads, dilations, ceil_mode, y, argmax).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL_WITH_ARGMAX_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL_WITH_ARGMAX_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPoolWithArgmaxV3GetWorkspaceSize(const aclTensor* x, const aclIntArray* kernelSize, const aclIntArray* strides, const aclIntArray* pads, const aclIntArray* dilations, bool ceilMode, const aclTensor* y, const aclTensor* argmax, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPoolWithArgmaxV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOL_WITH_ARGMAX_V3_H_ */
