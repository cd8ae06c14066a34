/*
 * npusim: aclnnGatherV3: aclnnGatherV2 with batchDims and a kernel mode.
 * Declarations as in hicann/ops-nn index/gather_v2/op_api/aclnn_gather_v3.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherV3GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, int64_t batchDims, int64_t mode, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGatherV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_V3_H_ */
