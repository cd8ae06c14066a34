/*
 * npusim: aclnnCalculateConvolutionWeightSize and aclnnTransConvolutionWeight (the convolution
 * weight in the cube's FRACTAL_Z layout; documented for Atlas inference products only).
 * Declarations as in hicann/ops-math conversion/trans_data/op_api/aclnn_trans_convolution_weight.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_CONVOLUTION_WEIGHT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_CONVOLUTION_WEIGHT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCalculateConvolutionWeightSize(const aclIntArray* tensorShape, bool transposed, int64_t groups, aclDataType dataType, uint64_t* weightTensorSize);
ACLNN_API aclnnStatus aclnnTransConvolutionWeightGetWorkspaceSize(const aclTensor* weightIn, bool transposed, const int64_t groups, aclTensor* weightOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransConvolutionWeight(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANS_CONVOLUTION_WEIGHT_H_ */
