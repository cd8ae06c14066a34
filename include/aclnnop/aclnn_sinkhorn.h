/*
 * npusim: aclnnSinkhorn, the Sinkhorn-normalised exp(cost).
 * Declarations as in hicann/ops-math math/sinkhorn/op_api/aclnn_sinkhorn.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SINKHORN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SINKHORN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSinkhornGetWorkspaceSize(const aclTensor* cost, const aclScalar* tol, aclTensor* p, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSinkhorn(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SINKHORN_H_ */
