/*
 * npusim: aclnnEqual, whether self and other have the same shape and elements.
 * Declarations as in hicann/ops-math math/tensor_equal/op_api/aclnn_equal.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EQUAL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EQUAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEqualGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEqual(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EQUAL_H_ */
