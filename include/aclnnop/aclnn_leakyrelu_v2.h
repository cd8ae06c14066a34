/*
 * npusim: aclnnLeakyreluV2, x >= 0 ? x : negativeSlope * x.
 * Declarations as in hicann/ops-nn experimental/activation/leakyrelu_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKYRELU_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKYRELU_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeakyreluV2GetWorkspaceSize(const aclTensor* x, double negativeSlope, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeakyreluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEAKYRELU_V2_H_ */
