/*
 * npusim: aclnnSWhere: picks self or other by a condition.
 * Declarations as in hicann/ops-math math/select/op_api/aclnn_s_where.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_S_WHERE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_S_WHERE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSWhere(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_S_WHERE_H_ */
