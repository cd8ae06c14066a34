/*
 * npusim: aclnnSlogdet, the sign and ln|det| of square matrices.
 * Declarations as in hicann/ops-math math/slogdet/docs/aclnnSlogdet.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLOGDET_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLOGDET_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSlogdetGetWorkspaceSize(const aclTensor* self, aclTensor* signOut, aclTensor* logOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSlogdet(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SLOGDET_H_ */
