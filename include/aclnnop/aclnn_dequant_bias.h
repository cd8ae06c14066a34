/*
 * npusim: aclnnDequantBias: int32 matmul results to fp16/bf16 with weight and activation scales and bias.
 * Declarations as in hicann/ops-nn quant/dequant_bias docs/aclnnDequantBias.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_BIAS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_BIAS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDequantBiasGetWorkspaceSize(const aclTensor* x, const aclTensor* weightScale,
                                                       const aclTensor* activateScaleOptional,
                                                       const aclTensor* biasOptional, int64_t outputDtype,
                                                       const aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDequantBias(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_BIAS_H_ */
