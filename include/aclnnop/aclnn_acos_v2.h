/*
 * npusim: aclnnAcosV2 (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/acos_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ACOS_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ACOS_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAcosV2GetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAcosV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ACOS_V2_H_ */
