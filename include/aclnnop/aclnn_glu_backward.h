/*
 * npusim: aclnnGluBackward, the gradient of aclnnGlu.
 * Declarations as in hicann/ops-nn activation/glu_grad/op_api/aclnn_glu_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLU_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLU_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGluBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self, int64_t dim, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLU_BACKWARD_H_ */
