/*
 * npusim: aclnnSyncBatchNormGatherStats: global mean and invstd from per-device sums; running statistics updated
 * Declarations as in hicann/ops-nn norm/sync_batch_norm_gather_stats docs/aclnnSyncBatchNormGatherStats.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BATCH_NORM_GATHER_STATS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BATCH_NORM_GATHER_STATS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSyncBatchNormGatherStatsGetWorkspaceSize(const aclTensor* totalSum, const aclTensor* totalSquareSum, const aclTensor* sampleCount, aclTensor* mean, aclTensor* variance, float momentum, float eps, aclTensor* batchMean, aclTensor* batchInvstd, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSyncBatchNormGatherStats(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BATCH_NORM_GATHER_STATS_H_ */
