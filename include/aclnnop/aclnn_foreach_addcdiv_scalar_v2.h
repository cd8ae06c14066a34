/*
 * npusim: aclnnForeachAddcdivScalarV2 (runtime/aclnn/ops/foreach_math.cpp, on the foreach engine).
 * Declarations as in hicann/ops-nn foreach/foreach_addcdiv_scalar/docs/aclnnForeachAddcdivScalarV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachAddcdivScalarV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3, const aclScalar* scalar, const aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachAddcdivScalarV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FOREACH_ADDCDIV_SCALAR_V2_H_ */
