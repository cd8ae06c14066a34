/*
 * npusim: aclnnWeightQuantBatchMatmul (deprecated by the public library in favour of V3): the
 * fp16 x int8 weight-only quantised matmul with its two dequantisation paths (m > 64: addOffset /
 * mulScale on the vector unit; m <= 64: deqOffset / deqScale on the fixpipe).
 * Declarations as in hicann/ops-nn matmul/weight_quant_batch_matmul
 * (docs/aclnnWeightQuantBatchMatmul.md); the library's deprecation attribute is left out.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* diagonalMatrix, const aclTensor* deqOffset,
    const aclTensor* deqScale, const aclTensor* addOffset, const aclTensor* mulScale, const aclTensor* bias,
    bool transposeX1, bool transposeX2, float antiquantScale, float antiquantOffset, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmul(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_H_ */
