/*
 * npusim: aclnnAscendQuant: y = round(x * scale + offset) with per-channel scale/offset on the last axis.
 * Declarations as in hicann/ops-nn quant/ascend_quant_v2 docs/aclnnAscendQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAscendQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                       const aclTensor* offset, bool sqrtMode,
                                                       const char* roundMode, int32_t dstType,
                                                       const aclTensor* y, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAscendQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_QUANT_H_ */
