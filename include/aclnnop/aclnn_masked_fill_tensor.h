/*
 * npusim: aclnnInplaceMaskedFillTensor: fills masked positions with a 0-d tensor.
 * Declarations as in hicann/ops-math conversion/masked_fill/op_api/aclnn_masked_fill_tensor.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask, const aclTensor* value, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H_ */
