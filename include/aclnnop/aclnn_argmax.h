/*
 * npusim: aclnnArgMax: out = index of the maximum of self along dim.
 * Declarations as in hicann/ops-math math/arg_max_v2/op_api/aclnn_argmax.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArgMax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARGMAX_H_ */
