/*
 * npusim: aclnnPrelu, self > 0 ? self : weight * self, weight per channel (dim 1) or one value.
 * Declarations as in hicann/ops-nn activation/p_relu/op_api/aclnn_prelu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PRELU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PRELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor* self, const aclTensor* weight, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPrelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PRELU_H_ */
