/*
 * npusim: aclnnGatherV2: slices along dim picked by an index tensor.
 * Declarations as in hicann/ops-nn index/gather_v2/op_api/aclnn_gather_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGatherV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_V2_H_ */
