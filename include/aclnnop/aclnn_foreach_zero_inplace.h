/*
 * npusim: aclnnForeachZeroInplace (runtime/aclnn/ops/foreach_math.cpp, on the foreach engine).
 * Declarations as in hicann/ops-nn foreach/foreach_zero_inplace/docs/aclnnForeachZeroInplace.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_ZERO_INPLACE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_ZERO_INPLACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachZeroInplaceGetWorkspaceSize(const aclTensorList* x, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachZeroInplace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_ZERO_INPLACE_H_ */
