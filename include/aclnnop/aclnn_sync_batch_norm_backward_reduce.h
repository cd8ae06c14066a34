/*
 * npusim: aclnnSyncBatchNormBackwardReduce: sumDyXmu = sumDyDxPad - mean * sumDy, y = sumDyXmu * invertStd
 * Declarations as in hicann/ops-nn experimental/norm/sync_batch_norm_backward_reduce (op_host/sync_batch_norm_backward_reduce_def.cpp).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BATCH_NORM_BACKWARD_REDUCE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BATCH_NORM_BACKWARD_REDUCE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSyncBatchNormBackwardReduceGetWorkspaceSize(const aclTensor* sumDy, const aclTensor* sumDyDxPad, const aclTensor* mean, const aclTensor* invertStd, const aclTensor* sumDyXmu, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSyncBatchNormBackwardReduce(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BATCH_NORM_BACKWARD_REDUCE_H_ */
