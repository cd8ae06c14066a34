/*
 * npusim: aclnnTransformBiasRescaleQkv, qkv split into heads, biased, q scaled by 1/sqrt(head size).
 * Declarations as in hicann/ops-math math/transform_bias_rescale_qkv/docs/aclnnTransformBiasRescaleQkv.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANSFORM_BIAS_RESCALE_QKV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANSFORM_BIAS_RESCALE_QKV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransformBiasRescaleQkvGetWorkspaceSize(const aclTensor* qkv, const aclTensor* qkvBias, int64_t numHeads, const aclTensor* qOut, const aclTensor* kOut, const aclTensor* vOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransformBiasRescaleQkv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRANSFORM_BIAS_RESCALE_QKV_H_ */
