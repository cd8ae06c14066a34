/*
 * npusim: aclnnSoftsignBackward, an activation gradient (runtime/aclnn/ops/activation_grads.cpp).
 * Declarations as in hicann/ops-nn experimental/activation/softsign_grad/op_api/aclnn_softsign_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSIGN_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSIGN_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftsignBackwardGetWorkspaceSize(const aclTensor* gradients, const aclTensor* features, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftsignBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTSIGN_BACKWARD_H_ */
