/*
 * npusim: aclnnReflectionPad1dV2: mirror padding of the last dimension (custom operator).
 * Declarations as in hicann/ops-math experimental/math/reflection_pad1d_v2/op_host/reflection_pad1d_v2_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REFLECTION_PAD1D_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REFLECTION_PAD1D_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReflectionPad1dV2GetWorkspaceSize(const aclTensor* x, const aclIntArray* paddings, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReflectionPad1dV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REFLECTION_PAD1D_V2_H_ */
