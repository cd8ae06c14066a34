/*
 * npusim: aclnnHardSwishV2, x * min(max(x + 3, 0), 6) / 6.
 * Declarations as in hicann/ops-nn experimental/activation/hard_swish_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SWISH_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SWISH_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardSwishV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardSwishV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARD_SWISH_V2_H_ */
