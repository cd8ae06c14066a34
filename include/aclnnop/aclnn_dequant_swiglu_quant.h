/*
 * npusim: aclnnDequantSwigluQuant: dequant, SwiGLU and int8 quant in one kernel.
 * Signatures as documented in hicann/ops-nn quant/dequant_swiglu_quant/docs/aclnnDequantSwigluQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDequantSwigluQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional, const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional, const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, const aclTensor* yOut, const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDequantSwigluQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H_ */
