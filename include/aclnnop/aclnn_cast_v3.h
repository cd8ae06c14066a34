/*
 * npusim: aclnnCastV3 (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/cast_v3.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAST_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAST_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCastV3GetWorkspaceSize(const aclTensor* x, int64_t dstType, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCastV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CAST_V3_H_ */
