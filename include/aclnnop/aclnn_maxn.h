/*
 * npusim: aclnnMaxN, the elementwise maximum of a list of tensors with broadcasting.
 * Declarations as in hicann/ops-math math/maximum/op_api/aclnn_maxn.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAXN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAXN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxN(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAXN_H_ */
