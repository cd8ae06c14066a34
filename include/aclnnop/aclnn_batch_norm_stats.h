/*
 * npusim: aclnnBatchNormStats, per-channel mean and 1 / sqrt(variance + eps).
 * Declarations as in hicann/ops-math math/reduce_std_with_mean/op_api/aclnn_batch_norm_stats.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_STATS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_STATS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormStatsGetWorkspaceSize(const aclTensor* input, double eps, aclTensor* mean, aclTensor* invstd, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNormStats(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_STATS_H_ */
