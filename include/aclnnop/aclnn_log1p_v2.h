/*
 * npusim: aclnnLog1pV2 (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/log1p_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG1P_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG1P_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLog1pV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLog1pV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG1P_V2_H_ */
