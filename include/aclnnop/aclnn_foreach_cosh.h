/*
 * npusim: aclnnForeachCosh (runtime/aclnn/ops/foreach_math.cpp, on the foreach engine).
 * Declarations as in hicann/ops-nn foreach/foreach_cosh/docs/aclnnForeachCosh.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_COSH_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_COSH_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachCoshGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachCosh(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_COSH_H_ */
