/*
 * npusim: aclnnInplacePut: writes (or adds) source at flat indices.
 * Declarations as in hicann/ops-nn index/scatter_nd_update/op_api/aclnn_put.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PUT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PUT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplacePutGetWorkspaceSize(aclTensor* selfRef, const aclTensor* index, const aclTensor* source, bool accumulate, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplacePut(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PUT_H_ */
