/*
 * npusim: aclnnKlDivBackward, a loss gradient (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/kl_div_loss_grad (op_host/op_api/aclnn_kl_div_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction, bool logTarget, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnKlDivBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H_ */
