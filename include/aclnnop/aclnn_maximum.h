/*
 * npusim: aclnnMaximum, elementwise with broadcasting.
 * Declarations as in hicann/ops-math math/maximum/op_api/aclnn_maximum.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAXIMUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAXIMUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaximum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAXIMUM_H_ */
