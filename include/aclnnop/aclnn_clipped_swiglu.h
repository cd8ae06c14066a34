/*
 * npusim: aclnnClippedSwiglu, the clamped SwiGlu of GPT-OSS-style experts.
 * Declarations as in hicann/ops-nn activation/clipped_swiglu/docs/aclnnClippedSwiglu.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnClippedSwigluGetWorkspaceSize(const aclTensor* x, const aclTensor* groupIndexOptional, int64_t dim, double alpha, double limit, double bias, bool interleaved, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnClippedSwiglu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H_ */
