/*
 * npusim: aclnnCummin (runtime/aclnn/ops/cumulative.cpp).
 * Declarations as in hicann/ops-math math/cummin.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CUMMIN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CUMMIN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCumminGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCummin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CUMMIN_H_ */
