/*
 * npusim: aclnnBatchNormGatherStatsWithCounts: global mean and invstd from per-device mean, invstd and counts
 * Declarations as in hicann/ops-nn norm/sync_batch_norm_gather_stats_with_counts docs/aclnnBatchNormGatherStatsWithCounts.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_GATHER_STATS_WITH_COUNTS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_GATHER_STATS_WITH_COUNTS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(const aclTensor* input, const aclTensor* mean, const aclTensor* invstd, aclTensor* runningMean, aclTensor* runningVar, double momentum, double eps, const aclTensor* counts, aclTensor* meanAll, aclTensor* invstdAll, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNormGatherStatsWithCounts(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_GATHER_STATS_WITH_COUNTS_H_ */
