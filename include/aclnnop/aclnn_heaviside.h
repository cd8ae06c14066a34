/*
 * npusim: aclnnHeaviside: the step function with `values` at 0 (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-nn activation/heaviside/op_host/op_api/aclnn_heaviside.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_HEAVISIDE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_HEAVISIDE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHeavisideGetWorkspaceSize(const aclTensor* input, const aclTensor* values, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHeaviside(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_HEAVISIDE_H_ */
