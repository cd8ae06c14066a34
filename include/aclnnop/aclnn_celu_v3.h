/*
 * npusim: aclnnCeluV3, max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
 * Declarations as in hicann/ops-nn experimental/activation/celu_v3 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CELU_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CELU_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCeluV3GetWorkspaceSize(const aclTensor* self, double alpha, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCeluV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CELU_V3_H_ */
