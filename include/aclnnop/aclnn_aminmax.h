/*
 * npusim: aclnnAminmax, the minimum and maximum of self over dim.
 * Declarations as in hicann/ops-math math/reduce_min/op_api/aclnn_aminmax.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMINMAX_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMINMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAminmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclTensor* minOut, aclTensor* maxOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAminmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMINMAX_H_ */
