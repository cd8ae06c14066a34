/*
 * npusim: aclnnBinaryCrossEntropy, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn loss/binary_cross_entropy (op_api/aclnn_binary_cross_entropy.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBinaryCrossEntropy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_ */
