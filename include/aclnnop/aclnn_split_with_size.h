/*
 * npusim: aclnnSplitWithSize: self cut along dim into pieces of the given sizes.
 * Declarations as in hicann/ops-math conversion/split_v/op_api/aclnn_split_with_size.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor* self, const aclIntArray* splitSize, int64_t dim, aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSplitWithSize(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_ */
