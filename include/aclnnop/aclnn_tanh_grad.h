/*
 * npusim: aclnnTanhGrad, dy * (1 - y * y).
 * Declarations as in hicann/ops-nn experimental/activation/tanh_grad (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TANH_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TANH_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTanhGradGetWorkspaceSize(const aclTensor* y, const aclTensor* dy, const aclTensor* dx, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTanhGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TANH_GRAD_H_ */
