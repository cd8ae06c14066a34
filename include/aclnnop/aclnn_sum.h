/*
 * npusim: aclnnSum (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math math/accumulate_nv2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SUM_H_ */
