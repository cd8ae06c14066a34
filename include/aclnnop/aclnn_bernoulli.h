/*
 * npusim: aclnnBernoulli, aclnnInplaceBernoulli (runtime/aclnn/ops/random_ops.cpp).
 * Declarations as in hicann/ops-math random/stateless_bernoulli/docs/aclnnBernoulli&aclnnInplaceBernoulli.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BERNOULLI_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BERNOULLI_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBernoulliGetWorkspaceSize(const aclTensor* self, const aclScalar* prob, int64_t seed, int64_t offset, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBernoulli(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* prob, int64_t seed, int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceBernoulli(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BERNOULLI_H_ */
