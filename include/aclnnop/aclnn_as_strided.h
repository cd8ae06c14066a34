/*
 * npusim: aclnnAsStrided: a strided view of x copied out (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/as_strided/op_host/as_strided_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AS_STRIDED_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AS_STRIDED_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAsStridedGetWorkspaceSize(const aclTensor* x, const aclIntArray* size, const aclIntArray* stride, const aclIntArray* storageOffset, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAsStrided(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AS_STRIDED_H_ */
