/*
 * npusim: aclnnConfusionTranspose: a transpose and a reshape in either order.
 * Declarations as in hicann/ops-math conversion/confusion_transpose_d/op_api/aclnn_confusion_transpose.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONFUSION_TRANSPOSE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONFUSION_TRANSPOSE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConfusionTransposeGetWorkspaceSize(const aclTensor* x, const aclIntArray* perm, const aclIntArray* shape, bool transpose_first, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConfusionTranspose(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_CONFUSION_TRANSPOSE_H_ */
