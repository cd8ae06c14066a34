/*
 * npusim: aclnnLogAddExp: ln(e^self + e^other) (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-math math/log_add_exp/op_api/aclnn_logaddexp.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGADDEXP_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGADDEXP_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogAddExpGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogAddExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LOGADDEXP_H_ */
