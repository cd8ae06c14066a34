/*
 * npusim: aclnnAmpUpdateScale (runtime/aclnn/ops/amp_update_scale.cpp).
 * Declarations as in hicann/ops-math math/amp_update_scale.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAmpUpdateScaleGetWorkspaceSize(const aclTensor* currentScale, const aclTensor* growthTracker, const aclTensor* foundInf, double growthFactor, double backoffFactor, int64_t growthInterval, const aclTensor* updatedScale, const aclTensor* updatedGrowthTracker, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAmpUpdateScale(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H_ */
