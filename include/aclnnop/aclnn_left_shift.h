/*
 * npusim: aclnnLeftShift, aclnnLeftShifts: self << shiftBits on integers (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-math math/left_shift/op_api/aclnn_left_shift.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEFT_SHIFT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEFT_SHIFT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeftShiftGetWorkspaceSize(const aclTensor* self, const aclTensor* shiftBits, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeftShift(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnLeftShiftsGetWorkspaceSize(const aclTensor* self, const aclScalar* shiftBits, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeftShifts(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LEFT_SHIFT_H_ */
