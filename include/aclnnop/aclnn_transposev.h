/*
 * npusim: aclnnTransposev: a transpose by a permutation tensor (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/transposev/op_host/transposev_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANSPOSEV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANSPOSEV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransposevGetWorkspaceSize(const aclTensor* x, const aclTensor* perm, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransposev(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANSPOSEV_H_ */
