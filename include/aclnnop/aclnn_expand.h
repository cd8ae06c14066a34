/*
 * npusim: aclnnExpand: broadcasts self to a size.
 * Declarations as in hicann/ops-math math/expand/op_api/aclnn_expand.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXPAND_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXPAND_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor* self, const aclIntArray* size, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnExpand(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXPAND_H_ */
