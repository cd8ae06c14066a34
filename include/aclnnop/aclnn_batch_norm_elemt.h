/*
 * npusim: aclnnBatchNormElemt: y = (x - mean) * invstd * weight + bias per channel
 * Declarations as in hicann/ops-nn norm/batch_norm_elemt docs/aclnnBatchNormElemt.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_ELEMT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_ELEMT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormElemtGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, aclTensor* mean, aclTensor* invstd, double eps, aclTensor* output, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNormElemt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_NORM_ELEMT_H_ */
