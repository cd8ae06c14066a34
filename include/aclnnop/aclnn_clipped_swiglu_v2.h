/*
 * npusim: aclnnClippedSwigluV2, aclnnClippedSwiglu with the clamp before or after silu.
 * Declarations as in hicann/ops-nn activation/clipped_swiglu/docs/aclnnClippedSwigluV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CLIPPED_SWIGLU_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CLIPPED_SWIGLU_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnClippedSwigluV2GetWorkspaceSize(const aclTensor* x, const aclTensor* groupIndexOptional, int64_t dim, double alpha, double limit, double bias, bool interleaved, int64_t clampMode, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnClippedSwigluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CLIPPED_SWIGLU_V2_H_ */
