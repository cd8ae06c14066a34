/*
 * npusim: aclnnIsFinite, elementwise (runtime/aclnn/ops/unary_math.cpp).
 * Declarations as in hicann/ops-math math/is_finite.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISFINITE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISFINITE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIsFiniteGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIsFinite(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISFINITE_H_ */
