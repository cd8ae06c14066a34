/*
 * npusim: aclnnSumV2 (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math experimental/math/accumulate_nv2_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SUM_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SUM_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSumV2GetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSumV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SUM_V2_H_ */
