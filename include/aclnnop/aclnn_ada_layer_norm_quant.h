/*
 * npusim: aclnnAdaLayerNormQuant: adaptive layer norm (per-batch scale and shift) then dynamic
 * int8 quantisation. Declarations as in hicann/ops-nn norm/ada_layer_norm_quant
 * docs/aclnnAdaLayerNormQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaLayerNormQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* scale, const aclTensor* shift, const aclTensor* weightOptional,
    const aclTensor* biasOptional, const aclTensor* smoothScalesOptional, double epsilon, const char* quantMode,
    aclTensor* out, aclTensor* quantScale, aclTensor* quantOffsetOptional, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdaLayerNormQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_QUANT_H_ */
