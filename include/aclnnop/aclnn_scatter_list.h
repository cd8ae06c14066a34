/*
 * npusim: aclnnScatterList: slices of updates written into each tensor of a list.
 * Signatures as documented in hicann/ops-nn index/scatter_list/docs/aclnnScatterList.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_LIST_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScatterListGetWorkspaceSize(aclTensorList* varRef, const aclTensor* indice, const aclTensor* updates, const aclTensor* maskOptional, char* reduceOptional, int64_t axis, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatterList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SCATTER_LIST_H_ */
