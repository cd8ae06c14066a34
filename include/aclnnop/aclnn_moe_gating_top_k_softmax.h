/*
 * npusim: aclnnMoeGatingTopKSoftmax: softmax over the experts of each row, then its k largest
 * values, their expert indices and the row index of each (k-major) copy.
 * Declarations as in hicann/ops-transformer moe/moe_gating_top_k_softmax (README and example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(
    const aclTensor* x, const aclTensor* finishedOptional, int64_t k, const aclTensor* yOut,
    const aclTensor* expertIdxOut, const aclTensor* rowIdxOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeGatingTopKSoftmax(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H_ */
