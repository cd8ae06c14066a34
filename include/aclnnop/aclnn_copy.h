/*
 * npusim: aclnnInplaceCopy: selfRef = src (broadcast, converted).
 * Declarations as in hicann/ops-math conversion/view_copy/op_api/aclnn_copy.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_COPY_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_COPY_H_ */
