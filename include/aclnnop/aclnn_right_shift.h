/*
 * npusim: aclnnRightShift: input >> shiftBits on integers (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-math math/right_shift/op_api/aclnn_right_shift.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RIGHT_SHIFT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RIGHT_SHIFT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRightShiftGetWorkspaceSize(const aclTensor* input, const aclTensor* shiftBits, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRightShift(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RIGHT_SHIFT_H_ */
