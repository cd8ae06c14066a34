/*
 * npusim: aclnnMulNoNan, x * y, 0 where y is 0 (even for x inf or nan).
 * Declarations as in hicann/ops-math experimental/math/mul_no_nan/op_api/aclnn_mul_no_nan.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MUL_NO_NAN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MUL_NO_NAN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMulNoNanGetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMulNoNan(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MUL_NO_NAN_H_ */
