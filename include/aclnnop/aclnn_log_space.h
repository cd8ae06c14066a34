/*
 * npusim: aclnnLogSpace (runtime/aclnn/ops/lin_space.cpp).
 * Declarations as in hicann/ops-math experimental/math/log_space.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_SPACE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_SPACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogSpaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end, int64_t steps, double base, const aclTensor* result, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogSpace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOG_SPACE_H_ */
