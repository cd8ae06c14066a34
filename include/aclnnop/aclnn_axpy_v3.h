/*
 * npusim: aclnnAxpyV3 (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math experimental/math/axpy_v3.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AXPY_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AXPY_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAxpyV3GetWorkspaceSize(const aclTensor* x, const aclTensor* y, double a, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAxpyV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AXPY_V3_H_ */
