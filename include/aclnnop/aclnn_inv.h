/*
 * npusim: aclnnInv (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math experimental/math/inv.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_INV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_INV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInvGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_INV_H_ */
