/*
 * npusim: aclnnFloorDiv (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/floor_div.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLOOR_DIV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLOOR_DIV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFloorDivGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFloorDiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FLOOR_DIV_H_ */
