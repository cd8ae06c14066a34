/*
 * npusim: aclnnSyncBnTrainingUpdateV2: normalises x by its batch statistics and updates the running ones
 * Declarations as in hicann/ops-nn experimental/norm/sync_bn_training_update_v2 (op_host/sync_bn_training_update_v2_def.cpp).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BN_TRAINING_UPDATE_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BN_TRAINING_UPDATE_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSyncBnTrainingUpdateV2GetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* x3, float momentum, const aclTensor* y1, const aclTensor* y2, const aclTensor* y3, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSyncBnTrainingUpdateV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SYNC_BN_TRAINING_UPDATE_V2_H_ */
