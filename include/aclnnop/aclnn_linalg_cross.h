/*
 * npusim: aclnnLinalgCross (runtime/aclnn/ops/linalg_cross.cpp).
 * Declarations as in hicann/ops-math math/cross.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_CROSS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_CROSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLinalgCrossGetWorkspaceSize(const aclTensor* self, const aclTensor* other, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLinalgCross(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_CROSS_H_ */
