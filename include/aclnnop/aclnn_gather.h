/*
 * npusim: aclnnGather: out[i][j] = self[index[i][j]][j] along dim (torch.gather).
 * Declarations as in hicann/ops-nn index/gather_elements_v2/op_host/op_api/aclnn_gather.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGather(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_H_ */
