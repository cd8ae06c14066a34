/*
 * npusim: aclnnCeluV2, max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
 * Declarations as in hicann/ops-nn experimental/activation/celu_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CELU_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CELU_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCeluV2GetWorkspaceSize(const aclTensor* x, double alpha, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CELU_V2_H_ */
