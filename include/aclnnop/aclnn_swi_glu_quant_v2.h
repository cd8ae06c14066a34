/*
 * npusim: aclnnSwiGluQuantV2: SwiGluQuant with the group list type and output type.
 * Declarations as in hicann/ops-nn quant/swi_glu_quant docs/aclnnSwiGluQuantV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWI_GLU_QUANT_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWI_GLU_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwiGluQuantV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* smoothScalesOptional, const aclTensor* offsetsOptional,
    const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, int64_t groupListType,
    int64_t dstType, const aclTensor* yOut, const aclTensor* scaleOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwiGluQuantV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWI_GLU_QUANT_V2_H_ */
