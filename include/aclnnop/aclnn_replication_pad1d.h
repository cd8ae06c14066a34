/*
 * npusim: aclnnReplicationPad1d: edge padding of the last 1 dimension(s).
 * Declarations as in hicann/ops-math conversion/pad_v3/op_api/aclnn_replication_pad1d.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD1D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD1D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReplicationPad1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReplicationPad1d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD1D_H_ */
