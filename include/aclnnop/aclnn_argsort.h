/*
 * npusim: aclnnArgsort, the indices that sort self along dim.
 * Declarations as in hicann/ops-math math/sort/op_api/aclnn_argsort.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGSORT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGSORT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArgsort(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGSORT_H_ */
