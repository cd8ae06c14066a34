/*
 * npusim: aclnnAny, whether any element of self over dim is non-zero.
 * Declarations as in hicann/ops-math math/reduce_any/op_api/aclnn_any.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ANY_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ANY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAny(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ANY_H_ */
