/*
 * npusim: aclnnSinhV2, sinh(x).
 * Declarations as in hicann/ops-math experimental/math/sinh_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SINH_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SINH_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSinhV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSinhV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SINH_V2_H_ */
