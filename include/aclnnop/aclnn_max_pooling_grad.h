/*
 * npusim: aclnnMaxPoolingGrad, a pooling operator (runtime/aclnn/ops/pooling.cpp).
 * Declarations as in hicann/ops-nn experimental/pooling/max_pooling_grad (the generated header of its op definition: dy, x, y, dx).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOLING_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOLING_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPoolingGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* y, const aclTensor* dx, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPoolingGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_POOLING_GRAD_H_ */
