/*
 * npusim: aclnnForeachLerpList (runtime/aclnn/ops/foreach_math.cpp, on the foreach engine).
 * Declarations as in hicann/ops-nn foreach/foreach_lerp_list/docs/aclnnForeachLerpList.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_LERP_LIST_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_LERP_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachLerpListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* weight, const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachLerpList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_LERP_LIST_H_ */
