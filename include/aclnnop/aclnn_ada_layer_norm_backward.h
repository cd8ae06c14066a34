/*
 * npusim: aclnnAdaLayerNormBackward: gradients of aclnnAdaLayerNorm
 * Declarations as in hicann/ops-nn norm/ada_layer_norm_grad docs/aclnnAdaLayerNormBackward.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaLayerNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* rstd, const aclTensor* mean, const aclTensor* scale, const aclTensor* shift, const aclTensor* weightOptional, const aclTensor* biasOptional, aclTensor* gradInputOut, aclTensor* gradScaleOut, aclTensor* gradShiftOut, aclTensor* gradWeightOut, aclTensor* gradBiasOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdaLayerNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_BACKWARD_H_ */
