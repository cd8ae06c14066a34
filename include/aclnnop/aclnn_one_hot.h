/*
 * npusim: aclnnOneHot: one-hot encoding.
 * Declarations as in hicann/ops-math math/one_hot/op_api/aclnn_one_hot.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONE_HOT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONE_HOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses, const aclTensor* onValue, const aclTensor* offValue, int64_t axis, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnOneHot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ONE_HOT_H_ */
