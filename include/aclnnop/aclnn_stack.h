/*
 * npusim: aclnnStack: stacks tensors along a new dimension.
 * Declarations as in hicann/ops-math conversion/pack/op_api/aclnn_stack.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_STACK_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_STACK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnStack(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_STACK_H_ */
