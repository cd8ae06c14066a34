/*
 * npusim: aclnnIndexAddV2: aclnnIndexAdd with a kernel mode.
 * Declarations as in hicann/ops-nn index/inplace_scatter_add/op_host/op_api/aclnn_index_add_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_ADD_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_ADD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexAddV2GetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index, const aclTensor* source, const aclScalar* alpha, int64_t mode, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexAddV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_ADD_V2_H_ */
