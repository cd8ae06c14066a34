/*
 * npusim: aclnnMaxUnpool2dBackward: gradient of max unpooling (a gather by indices).
 * Declarations as in hicann/ops-nn index/gather_elements/op_api/aclnn_max_unpool2d_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_UNPOOL2D_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_UNPOOL2D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxUnpool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* outputSize, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxUnpool2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MAX_UNPOOL2D_BACKWARD_H_ */
