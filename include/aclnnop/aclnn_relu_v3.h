/*
 * npusim: aclnnReluV3, relu with a bit mask of the positive elements.
 * Declarations as in hicann/ops-nn experimental/activation/relu_v3/docs/aclnnReluV3.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReluV3GetWorkspaceSize(const aclTensor* x, aclTensor* yOut, aclTensor* maskOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReluV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RELU_V3_H_ */
