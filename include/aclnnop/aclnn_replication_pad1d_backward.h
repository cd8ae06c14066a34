/*
 * npusim: aclnnReplicationPad1dBackward: gradient of the 1d edge pad.
 * Declarations as in hicann/ops-math conversion/pad_v3_grad_replicate/op_host/op_api/aclnn_replication_pad1d_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD1D_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD1D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReplicationPad1dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* padding, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReplicationPad1dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REPLICATION_PAD1D_BACKWARD_H_ */
