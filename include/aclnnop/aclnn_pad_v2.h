/*
 * npusim: aclnnPadV2: constant padding given per dimension (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/pad_v2/op_host/pad_v2_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PAD_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PAD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPadV2GetWorkspaceSize(const aclTensor* x, int64_t mode, int64_t value, int64_t pad0, int64_t pad1, int64_t pad2, int64_t pad3, int64_t pad4, int64_t pad5, int64_t pad6, int64_t pad7, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPadV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PAD_V2_H_ */
