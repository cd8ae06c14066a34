/*
 * npusim: aclnnAdaLayerNormV2: aclnnAdaLayerNorm that also writes mean and rstd
 * Declarations as in hicann/ops-nn norm/ada_layer_norm_v2 docs/aclnnAdaLayerNormV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaLayerNormV2GetWorkspaceSize(const aclTensor* x, const aclTensor* scale, const aclTensor* shift, const aclTensor* weightOptional, const aclTensor* biasOptional, double epsilon, aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdaLayerNormV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADA_LAYER_NORM_V2_H_ */
