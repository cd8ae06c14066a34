/*
 * npusim: aclnnIsNegInf, elementwise (runtime/aclnn/ops/unary_math.cpp).
 * Declarations as in hicann/ops-math math/is_neg_inf.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISNEGINF_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISNEGINF_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIsNegInfGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIsNegInf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISNEGINF_H_ */
