/*
 * npusim: aclnnRange, start, start + step, ... up to end included.
 * Declarations as in hicann/ops-math math/range/op_api/aclnn_range.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANGE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANGE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end, const aclScalar* step, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRange(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RANGE_H_ */
