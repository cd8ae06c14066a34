/*
 * npusim: aclnnAmin, the minimum of self over dim.
 * Declarations as in hicann/ops-math math/reduce_min/op_api/aclnn_amin.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMIN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMIN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAmin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMIN_H_ */
