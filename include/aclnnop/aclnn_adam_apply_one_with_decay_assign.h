/*
 * npusim: aclnnAdamApplyOneWithDecayAssign (runtime/aclnn/ops/optim_steps.cpp, on the optim engine).
 * Declarations as in hicann/ops-nn experimental/optim/adam_apply_one_with_decay_assign (its op_host def file: inputs, then outputs).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAM_APPLY_ONE_WITH_DECAY_ASSIGN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAM_APPLY_ONE_WITH_DECAY_ASSIGN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdamApplyOneWithDecayAssignGetWorkspaceSize(const aclTensor* input0, const aclTensor* input1, const aclTensor* input2, const aclTensor* input3, const aclTensor* input4, const aclTensor* mul0_x, const aclTensor* mul1_x, const aclTensor* mul2_x, const aclTensor* mul3_x, const aclTensor* mul4_x, const aclTensor* add2_y, const aclTensor* output0, const aclTensor* output1, const aclTensor* output2, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdamApplyOneWithDecayAssign(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADAM_APPLY_ONE_WITH_DECAY_ASSIGN_H_ */
