/*
 * npusim: aclnnLogAddExp2: log2(2^self + 2^other) (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-math math/log_add_exp/op_api/aclnn_logaddexp2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGADDEXP2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGADDEXP2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogAddExp2GetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogAddExp2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGADDEXP2_H_ */
