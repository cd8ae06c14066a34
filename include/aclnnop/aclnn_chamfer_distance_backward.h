/*
 * npusim: aclnnChamferDistanceBackward, the gradient of the chamfer distance (runtime/aclnn/ops/chamfer_distance_grad.cpp).
 * Declarations as in hicann/ops-nn loss/chamfer_distance_grad (op_host/op_api/aclnn_chamfer_distance_backward.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CHAMFER_DISTANCE_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CHAMFER_DISTANCE_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnChamferDistanceBackwardGetWorkspaceSize(const aclTensor* xyz1, const aclTensor* xyz2, const aclTensor* idx1, const aclTensor* idx2, const aclTensor* gradDist1, const aclTensor* gradDist2, aclTensor* gradXyz1, aclTensor* gradXyz2, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnChamferDistanceBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CHAMFER_DISTANCE_BACKWARD_H_ */
