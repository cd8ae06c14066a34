/*
 * npusim: aclnnWeightQuantBatchMatmulV2: y = x @ ((weight + antiquantOffset) * antiquantScale) + bias
 * for a fp16/bf16 x and an int8 (or int4 packed in int32) weight.
 * Declarations as in hicann/ops-nn matmul/weight_quant_batch_matmul_v2
 * (op_api/aclnn_weight_quant_batch_matmul_v2.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
    const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_ */
