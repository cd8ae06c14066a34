/*
 * npusim: aclnnIm2Col: sliding windows as columns (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/im2_col/op_host/im2_col_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_IM2_COL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_IM2_COL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIm2ColGetWorkspaceSize(const aclTensor* x, int64_t kernelH, int64_t kernelW, int64_t strideH, int64_t strideW, int64_t padH, int64_t padW, int64_t dilationH, int64_t dilationW, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIm2Col(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_IM2_COL_H_ */
