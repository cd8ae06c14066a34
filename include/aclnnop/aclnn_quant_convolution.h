/*
 * npusim: aclnnQuantConvolution: per-channel dequantised int8 3-D convolution (Atlas A2).
 * Declarations as in hicann/ops-nn conv/convolution_forward/op_host/op_api/aclnn_quant_convolution.h
 * (aclnnQuantConvolutionWeightNz is not simulated and not declared).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_CONVOLUTION_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_CONVOLUTION_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclTensor* scale, const aclTensor* offset, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int64_t groups, int32_t offsetx, const char* roundMode, aclTensor* output, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantConvolution(void* workspace, const uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_CONVOLUTION_H_ */
