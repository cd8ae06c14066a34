/*
 * npusim: aclnnAscendAntiQuant: y = (x + offset) * scale (scale squared in sqrtMode) to fp16/bf16.
 * Declarations as in hicann/ops-nn quant/ascend_anti_quant_v2 docs/aclnnAscendAntiQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_ANTI_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_ANTI_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAscendAntiQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                           const aclTensor* offset, int64_t dstType,
                                                           bool sqrtMode, const aclTensor* y,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAscendAntiQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_ANTI_QUANT_H_ */
