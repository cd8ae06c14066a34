/*
 * npusim: aclnnDeformableConv2d: modulated deformable 2-D convolution (DCNv2).
 * Declarations as in hicann/ops-nn conv/deformable_conv2d/op_host/op_api/aclnn_deformable_conv2d.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEFORMABLE_CONV2D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEFORMABLE_CONV2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDeformableConv2dGetWorkspaceSize(const aclTensor* x, const aclTensor* weight, const aclTensor* offset, const aclTensor* biasOptional, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, int64_t groups, int64_t deformableGroups, bool modulated, aclTensor* out, aclTensor* deformOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDeformableConv2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEFORMABLE_CONV2D_H_ */
