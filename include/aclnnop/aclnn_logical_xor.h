/*
 * npusim: aclnnLogicalXor (runtime/aclnn/ops/binary_predicates.cpp).
 * Declarations as in hicann/ops-math math/not_equal.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGICAL_XOR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGICAL_XOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogicalXorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogicalXor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGICAL_XOR_H_ */
