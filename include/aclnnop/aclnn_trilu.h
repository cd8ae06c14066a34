/*
 * npusim: aclnnTrilu: lower or upper triangle (custom operator).
 * Declarations as in hicann/ops-math experimental/math/trilu/op_host/trilu_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRILU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRILU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTriluGetWorkspaceSize(const aclTensor* x, int64_t diagonal, int64_t upper, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTrilu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRILU_H_ */
