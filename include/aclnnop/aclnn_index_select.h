/*
 * npusim: aclnnIndexSelect: out = self with dim indexed by the 1-D index.
 * Declarations as in hicann/ops-nn index/gather_v2/op_api/aclnn_index_select.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_SELECT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_SELECT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexSelect(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_SELECT_H_ */
