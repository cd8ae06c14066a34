/*
 * npusim: aclnnDequantSwigluQuantV2: aclnnDequantSwigluQuant with the GPT-OSS SwiGLU variants and output options.
 * Signatures as documented in hicann/ops-nn quant/dequant_swiglu_quant/docs/aclnnDequantSwigluQuantV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDequantSwigluQuantV2GetWorkspaceSize(const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional, const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional, const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, int64_t dstType, char* roundModeOptional, int64_t activateDim, int64_t swigluMode, double clampLimit, double gluAlpha, double gluBias, const aclTensor* yOut, const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDequantSwigluQuantV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_V2_H_ */
