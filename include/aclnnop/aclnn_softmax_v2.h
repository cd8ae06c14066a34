/*
 * npusim: aclnnSoftmaxV2, softmax of x along dim.
 * Declarations as in hicann/ops-nn experimental/activation/softmax_v2 (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxV2GetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftmaxV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_V2_H_ */
