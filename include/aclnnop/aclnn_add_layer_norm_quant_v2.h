/*
 * npusim: aclnnAddLayerNormQuantV2: AddLayerNormQuant with the layer-norm result as an output.
 * Declarations as in hicann/ops-nn norm/add_layer_norm_quant_v2 docs/aclnnAddLayerNormQuantV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_LAYER_NORM_QUANT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_LAYER_NORM_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddLayerNormQuantV2GetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* beta,
    const aclTensor* biasOptional, const aclTensor* scales1Optional, const aclTensor* scales2Optional,
    const aclTensor* zeroPoints1Optional, const aclTensor* zeroPoints2Optional, const char* quantMode,
    double epsilon, bool additionalOutput, bool divMode, aclTensor* y1Out, aclTensor* y2Out, aclTensor* xOut,
    aclTensor* layernormRes, aclTensor* outScales1Out, aclTensor* outScales2Out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddLayerNormQuantV2(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_LAYER_NORM_QUANT_V2_H_ */
