/*
 * npusim: aclnnGroupNormSwish: a group norm followed by y * sigmoid(swishScale * y)
 * Declarations as in hicann/ops-nn norm/group_norm_swish docs/aclnnGroupNormSwish.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SWISH_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SWISH_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormSwishGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, const aclTensor* beta, int64_t numGroups, char* dataFormatOptional, double eps, bool activateSwish, double swishScale, const aclTensor* yOut, const aclTensor* meanOut, const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupNormSwish(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SWISH_H_ */
