/*
 * npusim: aclnnInplaceOne: selfRef = 1 (runtime/aclnn/ops/inplace_zero.cpp).
 * Declarations as in hicann/ops-math math/ones_like/op_api/aclnn_ones.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONES_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONES_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceOne(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONES_H_ */
