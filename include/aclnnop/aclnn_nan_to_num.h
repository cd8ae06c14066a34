/*
 * npusim: aclnnNanToNum / aclnnInplaceNanToNum, elementwise (runtime/aclnn/ops/unary_params.cpp).
 * Declarations as in hicann/ops-math math/nan_to_num.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NAN_TO_NUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NAN_TO_NUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNanToNumGetWorkspaceSize(const aclTensor* self, float nan, float posinf, float neginf, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNanToNum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceNanToNumGetWorkspaceSize(aclTensor* selfRef, float nan, float posinf, float neginf, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceNanToNum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NAN_TO_NUM_H_ */
