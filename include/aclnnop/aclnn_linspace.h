/*
 * npusim: aclnnLinspace (runtime/aclnn/ops/lin_space.cpp).
 * Declarations as in hicann/ops-math math/lin_space.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINSPACE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINSPACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end, int64_t steps, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLinspace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINSPACE_H_ */
