/*
 * npusim: aclnnRealV2, the real part of self.
 * Declarations as in hicann/ops-math experimental/math/real_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRealV2GetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRealV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_V2_H_ */
