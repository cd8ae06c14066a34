/*
 * npusim: aclnnConvolutionBackward (gradients of aclnnConvolution selected by outputMask) and
 * aclnnConvTbcBackward.
 * Declarations as in hicann/ops-nn conv/convolution_backward/op_api/aclnn_convolution_backward.h
 * (aclnnDeformableConv2dBackward is not simulated and not declared).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclIntArray* biasSizes, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int groups, const aclBoolArray* outputMask, int8_t cubeMathType, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(const aclTensor* self, const aclTensor* input, const aclTensor* weight, const aclTensor* bias, int64_t pad, int8_t cubeMathType, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);
ACLNN_API aclnnStatus aclnnConvTbcBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_ */
