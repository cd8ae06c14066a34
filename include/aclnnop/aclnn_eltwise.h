/*
 * npusim: aclnnEltwise (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math experimental/math/eltwise.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELTWISE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELTWISE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEltwiseGetWorkspaceSize(const aclTensorList* inputs, int64_t mode, const aclFloatArray* coeff, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEltwise(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELTWISE_H_ */
