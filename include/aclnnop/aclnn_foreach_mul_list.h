/*
 * npusim: aclnnForeachMulList (runtime/aclnn/ops/foreach_math.cpp, on the foreach engine).
 * Declarations as in hicann/ops-nn foreach/foreach_mul_list/docs/aclnnForeachMulList.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_MUL_LIST_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_MUL_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachMulListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachMulList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_MUL_LIST_H_ */
