/*
 * npusim: aclnnAddLora (runtime/aclnn/ops/add_lora.cpp).
 * Declarations as in hicann/ops-math math/add_lora.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_LORA_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_LORA_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddLoraGetWorkspaceSize(const aclTensor* y, const aclTensor* x, const aclTensor* weightB, const aclTensor* indices, const aclTensor* weightAOptional, int64_t layerIdx, double scale, int64_t yOffset, int64_t ySliceSize, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddLora(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADD_LORA_H_ */
