/*
 * npusim: aclnnPdistForward, p-norm distances between the rows of self (p a host scalar).
 * Declarations as in hicann/ops-math experimental/math/pdist/op_api/aclnn_pdist_forward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PDIST_FORWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PDIST_FORWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPdistForwardGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPdistForward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PDIST_FORWARD_H_ */
