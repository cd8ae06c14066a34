/*
 * npusim: aclnnArgMin (runtime/aclnn/ops/arg_reduce.cpp).
 * Declarations as in hicann/ops-math math/arg_min.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGMIN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGMIN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArgMin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGMIN_H_ */
