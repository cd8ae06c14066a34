/*
 * npusim: aclnnPackV2: stacks two tensors (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/pack_v2/op_host/pack_v2_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PACK_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PACK_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPackV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, int64_t d, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPackV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PACK_V2_H_ */
