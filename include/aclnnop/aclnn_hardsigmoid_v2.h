/*
 * npusim: aclnnHardsigmoidV2 and its in-place form, min(max(x / 6 + 1/2, 0), 1).
 * Declarations as in hicann/ops-nn experimental/activation/hard_sigmoid_v2/op_host/op_api/aclnn_hardsigmoid_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSIGMOID_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSIGMOID_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardsigmoidV2GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardsigmoidV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceHardsigmoidV2GetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceHardsigmoidV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HARDSIGMOID_V2_H_ */
