/*
 * npusim: aclnnAddMatMatElementsPlus (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math experimental/math/add_mat_mat_elements_plus.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_MAT_MAT_ELEMENTS_PLUS_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_MAT_MAT_ELEMENTS_PLUS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddMatMatElementsPlusGetWorkspaceSize(const aclTensor* c, const aclTensor* a, const aclTensor* b, const aclTensor* beta, const aclTensor* alpha, aclTensor* cOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddMatMatElementsPlus(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_MAT_MAT_ELEMENTS_PLUS_H_ */
