/*
 * npusim: aclnnBinaryCrossEntropyV2, a pointwise loss (runtime/aclnn/ops/losses.cpp).
 * Declarations as in hicann/ops-nn experimental/loss/binary_cross_entropy_v2 (the generated header of its op definition: inputs x, y, output z).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_V2_H_ */
