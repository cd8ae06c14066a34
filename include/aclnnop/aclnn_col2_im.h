/*
 * npusim: aclnnCol2Im: columns summed back into an image (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/col2_im/op_host/col2_im_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_COL2_IM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_COL2_IM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCol2ImGetWorkspaceSize(const aclTensor* col, int64_t outputH, int64_t outputW, int64_t kernelH, int64_t kernelW, int64_t stride, int64_t padding, int64_t dilation, const aclTensor* x, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCol2Im(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_COL2_IM_H_ */
