/*
 * npusim: aclnnIndex: advanced indexing with index tensors.
 * Declarations as in hicann/ops-nn index/index/op_api/aclnn_index.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor* self, const aclTensorList* indices, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndex(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_INDEX_H_ */
