/*
 * npusim: aclnnRepeatInterleaveGrad: sums the repeated blocks back.
 * Declarations as in hicann/ops-nn index/repeat_interleave_grad/docs/aclnnRepeatInterleaveGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPEAT_INTERLEAVE_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPEAT_INTERLEAVE_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRepeatInterleaveGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* repeats, int64_t axis, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRepeatInterleaveGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPEAT_INTERLEAVE_GRAD_H_ */
