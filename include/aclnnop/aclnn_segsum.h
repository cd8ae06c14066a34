/*
 * npusim: aclnnExpSegsum, exp of the segment sums of self's last dimension (lower triangle).
 * Declarations as in hicann/ops-math math/segsum/docs/aclnnExpSegsum.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SEGSUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SEGSUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnExpSegsumGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnExpSegsum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SEGSUM_H_ */
