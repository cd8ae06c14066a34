/*
 * npusim: aclnnSilu: self * sigmoid(self).
 * Declarations as in hicann/ops-nn activation/swish/op_api/aclnn_silu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SILU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SILU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSilu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SILU_H_ */
