/*
 * npusim: aclnnInplaceMaskedFillScalar: fills masked positions with a scalar.
 * Declarations as in hicann/ops-math conversion/masked_fill/op_api/aclnn_masked_fill_scalar.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask, const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_ */
