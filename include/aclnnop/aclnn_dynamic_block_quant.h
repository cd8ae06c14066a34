/*
 * npusim: aclnnDynamicBlockQuant: dynamic quantisation with one scale per block of rows x columns.
 * Declarations as in hicann/ops-nn quant/dynamic_block_quant docs/aclnnDynamicBlockQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DYNAMIC_BLOCK_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DYNAMIC_BLOCK_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDynamicBlockQuantGetWorkspaceSize(const aclTensor* x, double minScale,
                                                             char* roundModeOptional, int64_t dstType,
                                                             int64_t rowBlockSize, int64_t colBlockSize,
                                                             const aclTensor* yOut, const aclTensor* scaleOut,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDynamicBlockQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DYNAMIC_BLOCK_QUANT_H_ */
