/*
 * npusim: aclnnSwigluGroup, clamped SwiGlu with an optional per-token weight and token count.
 * Declarations as in hicann/ops-nn activation/swiglu_group/docs/aclnnSwigluGroup.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWIGLU_GROUP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWIGLU_GROUP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwigluGroupGetWorkspaceSize(const aclTensor* x, const aclTensor* weightOptional, const aclTensor* groupIndexOptional, double clampLimit, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwigluGroup(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWIGLU_GROUP_H_ */
