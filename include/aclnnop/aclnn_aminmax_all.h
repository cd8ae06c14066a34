/*
 * npusim: aclnnAminmaxAll, the minimum and maximum of all elements of self.
 * Declarations as in hicann/ops-math math/reduce_min/op_api/aclnn_aminmax_all.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMINMAX_ALL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMINMAX_ALL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAminmaxAllGetWorkspaceSize(const aclTensor* self, aclTensor* minOut, aclTensor* maxOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAminmaxAll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_AMINMAX_ALL_H_ */
