/*
 * npusim: aclnnBinaryCrossEntropyGradV2, a loss gradient (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/binary_cross_entropy_grad_v2 (the generated header of its op definition: grad, logits, labels, weight, reduction, z).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_GRAD_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_GRAD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyGradV2GetWorkspaceSize(const aclTensor* grad, const aclTensor* logits, const aclTensor* labels, const aclTensor* weight, int64_t reduction, aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyGradV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_GRAD_V2_H_ */
