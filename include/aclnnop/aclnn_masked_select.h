/*
 * npusim: aclnnMaskedSelect: the elements of self where mask is true, 1-D.
 * Declarations as in hicann/ops-math conversion/masked_select_v3/op_api/aclnn_masked_select.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_SELECT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_SELECT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaskedSelect(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_SELECT_H_ */
