/*
 * npusim: aclnnSigmoid / aclnnInplaceSigmoid: 1 / (1 + exp(-self)).
 * Declarations as in hicann/ops-nn activation/sigmoid/op_api/aclnn_sigmoid.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGMOID_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGMOID_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSigmoid(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceSigmoid(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SIGMOID_H_ */
