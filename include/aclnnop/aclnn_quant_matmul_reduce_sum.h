/*
 * npusim: aclnnQuantMatmulReduceSumWeightNz: out = Σ over the batch of (x1_b @ x2_b) · x1Scale ·
 * x2Scale for int8 x1 [batch, m, k] and int8 x2 in FRACTAL_NZ, bf16 out [m, n].
 * Declarations as in hicann/ops-nn matmul/quant_matmul_reduce_sum
 * (docs/aclnnQuantMatmulReduceSumWeightNz.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_REDUCE_SUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_REDUCE_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantMatmulReduceSumWeightNzGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
    const aclTensor* yScale, const aclTensor* x1Offset, const aclTensor* x2Offset, const aclTensor* yOffset,
    const aclTensor* bias, bool transposeX1, bool transposeX2, int64_t groupSize, const aclIntArray* dims,
    bool keepDims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantMatmulReduceSumWeightNz(void* workspace, uint64_t workspaceSize,
                                                        aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_REDUCE_SUM_H_ */
