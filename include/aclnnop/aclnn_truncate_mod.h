/*
 * npusim: aclnnTruncateMod, the remainder of x1 / x2 rounded toward zero (sign of x1).
 * Declarations as in hicann/ops-math experimental/math/truncate_mod (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRUNCATE_MOD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRUNCATE_MOD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTruncateModGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTruncateMod(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRUNCATE_MOD_H_ */
