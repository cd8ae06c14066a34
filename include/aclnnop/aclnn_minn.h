/*
 * npusim: aclnnMinN, the elementwise minimum of a list of tensors with broadcasting.
 * Declarations as in hicann/ops-math math/minimum/op_api/aclnn_minn.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MINN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MINN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMinNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMinN(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MINN_H_ */
