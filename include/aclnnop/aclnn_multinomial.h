/*
 * npusim: aclnnMultinomial, aclnnMultinomialTensor (runtime/aclnn/ops/multinomial.cpp).
 * Declarations as in hicann/ops-math random/stateless_sample_multinomial/docs/aclnnMultinomial{,Tensor}.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MULTINOMIAL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MULTINOMIAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMultinomialGetWorkspaceSize(const aclTensor* self, int64_t numsamples, bool replacement, int64_t seed, int64_t offset, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMultinomial(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnMultinomialTensorGetWorkspaceSize(const aclTensor* self, int64_t numsamples, bool replacement, const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMultinomialTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MULTINOMIAL_H_ */
