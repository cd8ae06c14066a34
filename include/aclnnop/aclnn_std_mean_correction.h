/*
 * npusim: aclnnStdMeanCorrection, the standard deviation and mean of self over dim.
 * Declarations as in hicann/ops-math math/reduce_std_with_mean/op_api/aclnn_std_mean_correction.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_STD_MEAN_CORRECTION_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_STD_MEAN_CORRECTION_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t correction, bool keepdim, aclTensor* stdOut, aclTensor* meanOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnStdMeanCorrection(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_STD_MEAN_CORRECTION_H_ */
