/*
 * npusim: aclnnLayerNormQuant: layer norm then static or dynamic int8 quantisation.
 * Declarations as in hicann/ops-nn norm/layer_norm_quant docs/aclnnLayerNormQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LAYER_NORM_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LAYER_NORM_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLayerNormQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma,
                                                          const aclTensor* beta, const aclTensor* scale,
                                                          const aclTensor* zeroPointsOptional, int quantMode,
                                                          double epsilon, aclTensor* res, aclTensor* scaleOut,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLayerNormQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LAYER_NORM_QUANT_H_ */
