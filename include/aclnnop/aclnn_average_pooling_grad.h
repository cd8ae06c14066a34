/*
 * npusim: aclnnAveragePoolingGrad, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn experimental/pooling/average_pooling_grad (its README: origInputShape as an aclIntArray, then the attributes).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AVERAGE_POOLING_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AVERAGE_POOLING_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAveragePoolingGradGetWorkspaceSize(const aclIntArray* origInputShape, const aclTensor* gradOutput, int64_t kernelH, int64_t kernelW, int64_t strideH, int64_t strideW, int64_t padTop, int64_t padBottom, int64_t padLeft, int64_t padRight, bool ceilMode, bool countIncludePad, int64_t divisorOverride, const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAveragePoolingGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AVERAGE_POOLING_GRAD_H_ */
