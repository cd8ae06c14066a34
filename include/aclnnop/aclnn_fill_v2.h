/*
 * npusim: aclnnFillV2: fills x with a one-element tensor's value (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/fill_v2/op_host/fill_v2_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFillV2GetWorkspaceSize(aclTensor* x, const aclTensor* fillValue, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFillV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_V2_H_ */
