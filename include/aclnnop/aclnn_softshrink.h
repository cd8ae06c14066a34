/*
 * npusim: aclnnSoftshrink, elementwise (runtime/aclnn/ops/unary_params.cpp).
 * Declarations as in hicann/ops-nn activation/softshrink.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSHRINK_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSHRINK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftshrink(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSHRINK_H_ */
