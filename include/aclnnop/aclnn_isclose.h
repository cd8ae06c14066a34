/*
 * npusim: aclnnIsClose (runtime/aclnn/ops/ternary_math.cpp).
 * Declarations as in hicann/ops-math math/is_close.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISCLOSE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISCLOSE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIsCloseGetWorkspaceSize(const aclTensor* self, const aclTensor* other, double rtol, double atol, bool equalNan, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIsClose(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ISCLOSE_H_ */
