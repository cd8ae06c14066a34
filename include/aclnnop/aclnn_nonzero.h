/*
 * npusim: aclnnNonzero: coordinates of the nonzero elements, one row each.
 * Declarations as in hicann/ops-nn index/non_zero/op_api/aclnn_nonzero.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NONZERO_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NONZERO_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNonzero(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NONZERO_H_ */
