/*
 * npusim: aclnnFusedMulAddN (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math experimental/math/fused_mul_add_n.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_MUL_ADD_N_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_MUL_ADD_N_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedMulAddNGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* x3, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedMulAddN(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_MUL_ADD_N_H_ */
