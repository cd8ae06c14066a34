/*
 * npusim: aclnnReduceSum (hicann/ops-math math/reduce_sum/op_api/aclnn_reduce_sum.h).
 * Sums self over `dims` (all dimensions if dims is empty) in type `dtype`, which must equal
 * out's type; keepDims keeps the reduced dimensions with size 1.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_SUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                                     bool keepDims, aclDataType dtype, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_REDUCE_SUM_H_ */
