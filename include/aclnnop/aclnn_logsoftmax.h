/*
 * npusim: aclnnLogSoftmax along dim.
 * Declarations as in hicann/ops-nn activation/log_softmax_v2 docs/aclnnLogSoftmax.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGSOFTMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGSOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGSOFTMAX_H_ */
