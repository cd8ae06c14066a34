/*
 * npusim: aclnnInplaceRandom, aclnnInplaceRandomTensor (runtime/aclnn/ops/random_ops.cpp, on the random engine).
 * Declarations as in hicann/ops-math random/dsa_random_uniform/docs/aclnnInplaceRandom*.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANDOM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANDOM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceRandomGetWorkspaceSize(const aclTensor* selfRef, int64_t from, int64_t to, int64_t seed, int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceRandom(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceRandomTensorGetWorkspaceSize(const aclTensor* selfRef, int64_t from, int64_t to, const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceRandomTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANDOM_H_ */
