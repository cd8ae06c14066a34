/*
 * npusim: aclnnPow2, x1 ^ x2 elementwise with broadcasting.
 * Declarations as in hicann/ops-math experimental/math/pow2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_POW2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_POW2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPow2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPow2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_POW2_H_ */
