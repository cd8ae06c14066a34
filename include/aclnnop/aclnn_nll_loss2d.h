/*
 * npusim: aclnnNLLLoss2d, a loss over a class dimension (runtime/aclnn/ops/class_losses.cpp).
 * Declarations as in hicann/ops-nn loss/nll_loss (op_api/aclnn_nll_loss2d.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NLL_LOSS2D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NLL_LOSS2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, aclTensor* out, aclTensor* totalWeightOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNLLLoss2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NLL_LOSS2D_H_ */
