/*
 * npusim: aclnnShrink, self -/+ bias outside [-lambd, lambd], else 0.
 * Declarations as in hicann/ops-nn activation/shrink/op_api/aclnn_shrink.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SHRINK_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SHRINK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnShrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, const aclScalar* bias, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnShrink(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SHRINK_H_ */
