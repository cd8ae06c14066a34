/*
 * npusim: aclnnGeluV2, x * Phi(x) or its tanh approximation.
 * Declarations as in hicann/ops-nn activation/gelu_v2/op_api/aclnn_gelu_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_V2_H_ */
