/*
 * npusim: aclnnForeachExpm1 (runtime/aclnn/ops/foreach_math.cpp, on the foreach engine).
 * Declarations as in hicann/ops-nn foreach/foreach_expm1/docs/aclnnForeachExpm1.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_EXPM1_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_EXPM1_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachExpm1GetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachExpm1(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_EXPM1_H_ */
