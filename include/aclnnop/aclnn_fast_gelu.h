/*
 * npusim: aclnnFastGelu, elementwise (runtime/aclnn/ops/unary_math.cpp).
 * Declarations as in hicann/ops-nn activation/fast_gelu/op_api/aclnn_fast_gelu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FAST_GELU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FAST_GELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFastGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFastGelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FAST_GELU_H_ */
