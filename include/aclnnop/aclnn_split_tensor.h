/*
 * npusim: aclnnSplitTensor: self cut along dim into pieces of splitSections (the last may be shorter).
 * Declarations as in hicann/ops-math conversion/split_v/op_api/aclnn_split_tensor.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_TENSOR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor* self, uint64_t splitSections, int64_t dim, aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSplitTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_TENSOR_H_ */
