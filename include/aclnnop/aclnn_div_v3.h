/*
 * npusim: aclnnDivV3 (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/div_v3.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIV_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIV_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDivV3GetWorkspaceSize(const aclTensor* self, const aclTensor* other, int64_t mode, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDivV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIV_V3_H_ */
