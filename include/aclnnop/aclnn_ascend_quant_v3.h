/*
 * npusim: aclnnAscendQuantV3: AscendQuant with scale/offset along any axis.
 * Declarations as in hicann/ops-nn quant/ascend_quant_v2 docs/aclnnAscendQuantV3.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_QUANT_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_QUANT_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAscendQuantV3GetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                         const aclTensor* offset, bool sqrtMode,
                                                         const char* roundMode, int32_t dstType, int32_t axis,
                                                         const aclTensor* y, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAscendQuantV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ASCEND_QUANT_V3_H_ */
