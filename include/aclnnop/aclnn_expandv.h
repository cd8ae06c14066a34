/*
 * npusim: aclnnExpandv: broadcasts x to a shape (custom operator; arguments in its op definition's order).
 * Declarations as in hicann/ops-math experimental/math/expandv/op_host/expandv_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXPANDV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXPANDV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnExpandvGetWorkspaceSize(const aclTensor* x, const aclIntArray* shape, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnExpandv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EXPANDV_H_ */
