/*
 * npusim: aclnnTfScatterAdd: adds update rows into varRef rows.
 * Declarations as in hicann/ops-nn index/tf_scatter_add/op_host/op_api/aclnn_tf_scatter_add.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TF_SCATTER_ADD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TF_SCATTER_ADD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTfScatterAddGetWorkspaceSize(aclTensor* varRef, const aclTensor* indices, const aclTensor* updates, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTfScatterAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TF_SCATTER_ADD_H_ */
