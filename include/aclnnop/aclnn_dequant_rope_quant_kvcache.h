/*
 * npusim: aclnnDequantRopeQuantKvcache: dequant, split into q/k/v, RoPE, int8 quant into the kv caches.
 * Signature as documented for hicann/ops-transformer posembedding/dequant_rope_quant_kvcache (its README and the
 * CANN operator reference it links).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_ROPE_QUANT_KVCACHE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_ROPE_QUANT_KVCACHE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDequantRopeQuantKvcacheGetWorkspaceSize(const aclTensor* x, const aclTensor* cos, const aclTensor* sin, aclTensor* kCacheRef, aclTensor* vCacheRef, const aclTensor* indices, const aclTensor* scaleK, const aclTensor* scaleV, const aclTensor* offsetKOptional, const aclTensor* offsetVOptional, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional, const aclTensor* biasOptional, const aclIntArray* sizeSplits, char* quantModeOptional, char* layoutOptional, bool kvOutput, char* cacheModeOptional, const aclTensor* qOut, const aclTensor* kOut, const aclTensor* vOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDequantRopeQuantKvcache(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DEQUANT_ROPE_QUANT_KVCACHE_H_ */
