/*
 * npusim: aclnnLogSumExp, ln of the sum of exp(self) over dim.
 * Declarations as in hicann/ops-math math/reduce_log_sum_exp/op_api/aclnn_logsumexp.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGSUMEXP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGSUMEXP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogSumExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGSUMEXP_H_ */
