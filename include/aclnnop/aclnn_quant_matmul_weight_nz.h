/*
 * npusim: aclnnQuantMatmulWeightNz: the quantised matmul of int8 x1 and an int8 x2 in FRACTAL_NZ,
 * out = x1 @ x2 · x2Scale (· x1Scale) (+ bias / x2Offset).
 * Declarations as in hicann/ops-nn matmul/quant_batch_matmul_v3 (docs/aclnnQuantMatmulWeightNz.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_WEIGHT_NZ_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantMatmulWeightNzGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
    const aclTensor* yScale, const aclTensor* x1Offset, const aclTensor* x2Offset, const aclTensor* yOffset,
    const aclTensor* bias, bool transposeX1, bool transposeX2, int64_t groupSize, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantMatmulWeightNz(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_WEIGHT_NZ_H_ */
