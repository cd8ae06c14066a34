/*
 * npusim: aclnnLinSpaceD (runtime/aclnn/ops/lin_space.cpp).
 * Declarations as in hicann/ops-math experimental/math/lin_space_d (num is a value-dependent input: an int array).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LIN_SPACE_D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LIN_SPACE_D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLinSpaceDGetWorkspaceSize(const aclTensor* start, const aclTensor* end, const aclIntArray* num, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLinSpaceD(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LIN_SPACE_D_H_ */
