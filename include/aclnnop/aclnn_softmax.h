/*
 * npusim: aclnnSoftmax along dim.
 * Declarations as in hicann/ops-nn activation/softmax_v2/op_api/aclnn_softmax.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SOFTMAX_H_ */
