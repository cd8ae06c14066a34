/*
 * npusim: aclnnReduceNansum, the sum of self over dim, NaN counted as 0.
 * Declarations as in hicann/ops-math math/reduce_nansum/op_api/aclnn_reduce_nansum.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_NANSUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_NANSUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReduceNansumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReduceNansum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_NANSUM_H_ */
