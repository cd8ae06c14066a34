/*
 * npusim: aclnnOnehot: one-hot encoding of int32 indices (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/onehot/op_host/onehot_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONEHOT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONEHOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnOnehotGetWorkspaceSize(const aclTensor* x, int64_t depth, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnOnehot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONEHOT_H_ */
