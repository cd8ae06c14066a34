/*
 * npusim: aclnnTensorMove: copies x into y (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/tensor_move/op_host/tensor_move_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TENSOR_MOVE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TENSOR_MOVE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTensorMoveGetWorkspaceSize(const aclTensor* x, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTensorMove(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TENSOR_MOVE_H_ */
