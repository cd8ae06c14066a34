/*
 * npusim: aclnnInplaceNormal, aclnnInplaceNormalTensor (runtime/aclnn/ops/random_ops.cpp, on the random engine).
 * Declarations as in hicann/ops-math random/dsa_random_normal/docs/aclnnInplaceNormal*.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NORMAL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NORMAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor* selfRef, float mean, float std, int64_t seed, int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceNormal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceNormalTensorGetWorkspaceSize(const aclTensor* selfRef, float mean, float std, const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceNormalTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NORMAL_H_ */
