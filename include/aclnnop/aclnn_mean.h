/*
 * npusim: aclnnMean: out = mean(self, dim) in type dtype.
 * Declarations as in hicann/ops-math math/reduce_mean/op_api/aclnn_mean.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MEAN_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MEAN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMean(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
/* mean over dim in self's type; noopWithEmptyAxes with an empty dim: out = self (runtime/aclnn/ops/reduce_math.cpp) */
ACLNN_API aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, bool noopWithEmptyAxes, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMeanV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MEAN_H_ */
