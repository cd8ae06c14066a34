/*
 * npusim: aclnnPolar, input * (cos(angle) + i sin(angle)) as complex64.
 * Declarations as in hicann/ops-math math/polar/op_api/aclnn_polar.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_POLAR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_POLAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPolarGetWorkspaceSize(const aclTensor* input, const aclTensor* angle, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPolar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_POLAR_H_ */
