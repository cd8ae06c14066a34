/*
 * npusim: aclnnTruncV2, x rounded toward zero.
 * Declarations as in hicann/ops-math experimental/math/trunc_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRUNC_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRUNC_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTruncV2GetWorkspaceSize(const aclTensor* x, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTruncV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRUNC_V2_H_ */
