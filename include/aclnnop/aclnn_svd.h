/*
 * npusim: aclnnSvd, input = u diag(sigma) vT.
 * Declarations as in hicann/ops-math math/svd/docs/aclnnSvd.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SVD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SVD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSvdGetWorkspaceSize(const aclTensor* input, const bool fullMatrices, const bool computeUV, aclTensor* sigma, aclTensor* u, aclTensor* v, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSvd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SVD_H_ */
