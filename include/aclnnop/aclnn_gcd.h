/*
 * npusim: aclnnGcd: the greatest common divisor of integers (runtime/aclnn/ops/binary_arith.cpp).
 * Declarations as in hicann/ops-math math/gcd/op_api/aclnn_gcd.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GCD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GCD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGcdGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGcd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GCD_H_ */
