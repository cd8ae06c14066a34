/*
 * npusim: aclnnRopeWithSinCosCache (runtime/aclnn/ops/rope_with_sin_cos_cache.cpp).
 * Declarations as in hicann/ops-transformer posembedding/rope_with_sin_cos_cache
 * (op_host/op_api/aclnn_rope_with_sin_cos_cache.h, README.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRopeWithSinCosCacheGetWorkspaceSize(
    const aclTensor* positions, const aclTensor* queryIn, const aclTensor* keyIn,
    const aclTensor* cosSinCache, const aclIntArray* mropeSection, int64_t headSize, bool isNeoxStyle,
    aclTensor* queryOut, aclTensor* keyOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRopeWithSinCosCache(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_H_ */
