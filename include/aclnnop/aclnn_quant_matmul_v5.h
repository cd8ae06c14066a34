/*
 * npusim: aclnnQuantMatmulV5: the quantised matmul of int8 x1 and int8 (or int4 packed in int32)
 * x2 in the Atlas A2 quantisation modes K-C/K-T/T-C/T-T, G-B (per block) and K-G (per group).
 * Declarations as in hicann/ops-nn matmul/quant_batch_matmul_v4 (op_api/aclnn_quant_matmul_v5.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_V5_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_V5_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantMatmulV5GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                         const aclTensor* x1Scale, const aclTensor* x2Scale,
                                                         const aclTensor* yScale, const aclTensor* x1Offset,
                                                         const aclTensor* x2Offset, const aclTensor* yOffset,
                                                         const aclTensor* bias, bool transposeX1,
                                                         bool transposeX2, int64_t groupSize, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantMatmulV5(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_V5_H_ */
