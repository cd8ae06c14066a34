/*
 * npusim: aclnnAsinGrad (runtime/aclnn/ops/inverse_trig_grads.cpp).
 * Declarations as in hicann/ops-math experimental/math/asin_grad.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASIN_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASIN_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAsinGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAsinGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASIN_GRAD_H_ */
