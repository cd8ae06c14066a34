/*
 * npusim: aclnnPermute: reorders dimensions.
 * Declarations as in hicann/ops-math conversion/transpose/op_api/aclnn_permute.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PERMUTE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PERMUTE_H_ */
