/*
 * npusim: aclnnArange: out = start, start + step, ... (below end).
 * Declarations as in hicann/ops-math math/range/op_api/aclnn_arange.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARANGE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARANGE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end, const aclScalar* step, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArange(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ARANGE_H_ */
