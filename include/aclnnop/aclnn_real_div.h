/*
 * npusim: aclnnRealDiv, x1 / x2 in floating point with broadcasting.
 * Declarations as in hicann/ops-math experimental/math/real_div (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_DIV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_DIV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRealDivGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRealDiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_DIV_H_ */
