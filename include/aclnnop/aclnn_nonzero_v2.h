/*
 * npusim: aclnnNonzeroV2: coordinates of the nonzero elements, one column each.
 * Declarations as in hicann/ops-nn index/non_zero/op_api/aclnn_nonzero_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NONZERO_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NONZERO_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNonzeroV2GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNonzeroV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NONZERO_V2_H_ */
