/*
 * npusim: aclnnGatherElementsV3: torch.gather (custom operator).
 * Declarations as in hicann/ops-nn experimental/index/gather_elements_v3/op_host/gather_elements_v3_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_ELEMENTS_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_ELEMENTS_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherElementsV3GetWorkspaceSize(const aclTensor* x, const aclTensor* index, int64_t dim, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGatherElementsV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GATHER_ELEMENTS_V3_H_ */
