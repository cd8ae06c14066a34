/*
 * npusim: aclnnInplaceFillTensor: selfRef = value, a one-element device tensor
 * (runtime/aclnn/ops/inplace_fill.cpp).
 * Declarations as in hicann/ops-math conversion/fill/op_api/aclnn_fill_tensor.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_TENSOR_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* value, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceFillTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_TENSOR_H_ */
