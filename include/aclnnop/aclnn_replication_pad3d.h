/*
 * npusim: aclnnReplicationPad3d: edge padding of the last 3 dimension(s).
 * Declarations as in hicann/ops-math conversion/pad_v3/op_api/aclnn_replication_pad3d.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD3D_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD3D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReplicationPad3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReplicationPad3d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD3D_H_ */
