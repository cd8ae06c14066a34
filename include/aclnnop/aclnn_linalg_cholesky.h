/*
 * npusim: aclnnLinalgCholesky (runtime/aclnn/ops/small_linalg.cpp).
 * Declarations as in hicann/ops-math math/cholesky.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_CHOLESKY_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_CHOLESKY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLinalgCholeskyGetWorkspaceSize(const aclTensor* self, bool upper, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLinalgCholesky(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_CHOLESKY_H_ */
