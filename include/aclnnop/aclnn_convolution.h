/*
 * npusim: aclnnConvolution (1-D/2-D/3-D, grouped, dilated, transposed), aclnnConvTbc and
 * aclnnConvDepthwise2d.
 * Declarations as in hicann/ops-nn conv/convolution_forward/op_host/op_api/aclnn_convolution.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONVOLUTION_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONVOLUTION_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, const int64_t groups, aclTensor* output, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor* self, const aclTensor* weight, const aclTensor* bias, const int64_t pad, aclTensor* output, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(const aclTensor* self, const aclTensor* weight, const aclIntArray* kernelSize, const aclTensor* bias, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConvolution(void* workspace, const uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnConvTbc(void* workspace, const uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnConvDepthwise2d(void* workspace, const uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONVOLUTION_H_ */
