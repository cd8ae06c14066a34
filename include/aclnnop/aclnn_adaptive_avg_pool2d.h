/*
 * npusim: aclnnAdaptiveAvgPool2d, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn pooling/adaptive_avg_pool2d (op_api/aclnn_adaptive_avg_pool2d.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdaptiveAvgPool2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H_ */
