/*
 * npusim: aclnnSplit: splits x at points along an axis (custom operator).
 * Declarations as in hicann/ops-math experimental/conversion/split/op_host/split_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSplitGetWorkspaceSize(const aclTensor* x, const aclIntArray* indicesOrSections, int64_t axis, const aclTensorList* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSplit(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SPLIT_H_ */
