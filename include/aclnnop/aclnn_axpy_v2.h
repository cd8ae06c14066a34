/*
 * npusim: aclnnAxpyV2 (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math experimental/math/axpy_v2 (alpha is declared .Scalar() in its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AXPY_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AXPY_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAxpyV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclScalar* alpha, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAxpyV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AXPY_V2_H_ */
