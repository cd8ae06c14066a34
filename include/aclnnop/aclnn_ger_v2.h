/*
 * npusim: aclnnGerV2 (runtime/aclnn/ops/vector_products.cpp).
 * Declarations as in hicann/ops-math experimental/math/ger_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GER_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GER_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGerV2GetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* A, double alpha, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGerV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GER_V2_H_ */
