/*
 * npusim: aclnnRandperm (runtime/aclnn/ops/random_ops.cpp, on the random engine).
 * Declarations as in hicann/ops-math random/stateless_randperm/docs/aclnnRandperm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANDPERM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANDPERM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRandpermGetWorkspaceSize(int64_t n, int64_t seed, int64_t offset, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRandperm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANDPERM_H_ */
