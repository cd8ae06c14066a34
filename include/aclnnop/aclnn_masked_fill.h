/*
 * npusim: aclnnMaskedFill: x with masked positions set to a value (custom operator).
 * Declarations as in hicann/ops-math experimental/math/masked_fill/op_host/masked_fill_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaskedFillGetWorkspaceSize(const aclTensor* x, const aclTensor* mask, const aclScalar* value, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaskedFill(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_H_ */
