/*
 * npusim: aclnnLpNormV3: y = x / (sum |x|^p + eps)^(1/p) along axis
 * Declarations as in hicann/ops-nn experimental/norm/lp_norm_v3 (op_host/lp_norm_v3_def.cpp: input, attributes p and axis, output).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LP_NORM_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LP_NORM_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLpNormV3GetWorkspaceSize(const aclTensor* x, float p, int64_t axis, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLpNormV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LP_NORM_V3_H_ */
