/*
 * npusim: aclnnIsInf (runtime/aclnn/ops/variants_a_l.cpp).
 * Declarations as in hicann/ops-math math/is_inf.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_INF_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_INF_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIsInfGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIsInf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_IS_INF_H_ */
