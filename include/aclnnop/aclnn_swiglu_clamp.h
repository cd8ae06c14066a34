/*
 * npusim: aclnnSwigluClamp, min(silu(gate), limit) * clamp(up, -limit, limit).
 * Declarations as in hicann/ops-nn experimental/activation/swiglu_clamp/op_host/op_api/aclnn_swiglu_clamp.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWIGLU_CLAMP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWIGLU_CLAMP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwigluClampGetWorkspaceSize(const aclTensor* x, double limit, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwigluClamp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWIGLU_CLAMP_H_ */
