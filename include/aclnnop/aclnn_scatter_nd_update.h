/*
 * npusim: aclnnScatterNdUpdate: writes updates at index rows in place.
 * Declarations as in hicann/ops-nn index/scatter_nd_update/op_api/aclnn_scatter_nd_update.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_ND_UPDATE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_ND_UPDATE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScatterNdUpdateGetWorkspaceSize(aclTensor* varRef, const aclTensor* indices, const aclTensor* updates, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatterNdUpdate(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_ND_UPDATE_H_ */
