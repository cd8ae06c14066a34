/*
 * npusim: aclnnAll, whether every element of self over dim is non-zero.
 * Declarations as in hicann/ops-math math/reduce_all/op_api/aclnn_all.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ALL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ALL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ALL_H_ */
