/*
 * npusim: aclnnFusedBiasLeakyRelu, scale * leaky_relu(x + bias).
 * Declarations as in hicann/ops-nn experimental/activation/fused_bias_leaky_relu/op_api/aclnn_fused_bias_leaky_relu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_BIAS_LEAKY_RELU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_BIAS_LEAKY_RELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedBiasLeakyReluGetWorkspaceSize(const aclTensor* x, const aclTensor* bias, double negativeSlope, double scale, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedBiasLeakyRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_BIAS_LEAKY_RELU_H_ */
