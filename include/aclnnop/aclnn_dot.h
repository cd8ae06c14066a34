/*
 * npusim: aclnnDot (runtime/aclnn/ops/vector_products.cpp).
 * Declarations as in hicann/ops-math math/dot.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DOT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DOT_H_ */
