/*
 * npusim: aclnnIm2col: sliding windows of an image as columns (torch unfold).
 * Declarations as in hicann/ops-math conversion/im2col/op_api/aclnn_im2col.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_IM2COL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_IM2COL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* dilation, const aclIntArray* padding, const aclIntArray* stride, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIm2col(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_IM2COL_H_ */
