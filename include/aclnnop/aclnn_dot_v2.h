/*
 * npusim: aclnnDotV2 (runtime/aclnn/ops/vector_products.cpp).
 * Declarations as in hicann/ops-math experimental/math/dot_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DOT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DOT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDotV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDotV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DOT_V2_H_ */
