/*
 * npusim: aclnnScatterAdd: adds src into self at index along dim.
 * Declarations as in hicann/ops-nn index/scatter_elements_v2/op_api/aclnn_scatter_add.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_ADD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_ADD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* src, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatterAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_ADD_H_ */
