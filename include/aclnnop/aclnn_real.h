/*
 * npusim: aclnnReal: the real part of self (runtime/aclnn/ops/real.cpp).
 * Declarations as in hicann/ops-math math/real/op_api/aclnn_real.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRealGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REAL_H_ */
