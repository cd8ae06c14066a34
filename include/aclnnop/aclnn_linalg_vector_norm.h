/*
 * npusim: aclnnLinalgVectorNorm: the ord-norm of self over dims, in out's dtype
 * Declarations as in hicann/ops-nn norm/lp_norm_v2 docs/aclnnLinalgVectorNorm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor* self, const aclScalar* ord, const aclIntArray* dims, bool keepDims, const aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLinalgVectorNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H_ */
