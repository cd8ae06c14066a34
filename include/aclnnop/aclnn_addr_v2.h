/*
 * npusim: aclnnAddrV2 / aclnnInplaceAddrV2 (runtime/aclnn/ops/vector_products.cpp).
 * Declarations as in hicann/ops-math experimental/math/addr_v2.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDR_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDR_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddrV2GetWorkspaceSize(const aclTensor* self, const aclTensor* vec1, const aclTensor* vec2, const aclScalar* betaOptional, const aclScalar* alphaOptional, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddrV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceAddrV2GetWorkspaceSize(aclTensor* selfRef, const aclTensor* vec1, const aclTensor* vec2, const aclScalar* betaOptional, const aclScalar* alphaOptional, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceAddrV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDR_V2_H_ */
