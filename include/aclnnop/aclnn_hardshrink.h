/*
 * npusim: aclnnHardshrink, elementwise (runtime/aclnn/ops/unary_params.cpp).
 * Declarations as in hicann/ops-nn activation/hard_shrink.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSHRINK_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSHRINK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardshrink(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSHRINK_H_ */
