/*
 * npusim: aclnnSqrtBackward, dy * 0.5 / y.
 * Declarations as in hicann/ops-math experimental/math/sqrt_grad/op_api/aclnn_sqrt_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SQRT_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SQRT_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSqrtBackwardGetWorkspaceSize(const aclTensor* y, const aclTensor* dy, aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSqrtBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SQRT_BACKWARD_H_ */
