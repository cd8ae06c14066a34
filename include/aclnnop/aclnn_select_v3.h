/*
 * npusim: aclnnSelectV3: picks x or y by an int8 mask (custom operator).
 * Declarations as in hicann/ops-math experimental/math/select_v3/op_host/select_v3_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SELECT_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SELECT_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSelectV3GetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* b, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSelectV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SELECT_V3_H_ */
