/*
 * npusim: aclnnBroadcastV2: repeats x's elements num times along an axis (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/broadcast_v2/op_host/broadcast_v2_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BROADCAST_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BROADCAST_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBroadcastV2GetWorkspaceSize(const aclTensor* x, int64_t bufferMode, int64_t dim, int64_t isReuseSource, int64_t axis, int64_t num, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBroadcastV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BROADCAST_V2_H_ */
