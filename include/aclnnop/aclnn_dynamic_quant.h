/*
 * npusim: aclnnDynamicQuant: symmetric per-token (per-row) dynamic quantisation to int8 or int4.
 * Declarations as in hicann/ops-nn quant/dynamic_quant docs/aclnnDynamicQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DYNAMIC_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DYNAMIC_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDynamicQuantGetWorkspaceSize(const aclTensor* x,
                                                        const aclTensor* smoothScalesOptional,
                                                        const aclTensor* yOut, const aclTensor* scaleOut,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDynamicQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DYNAMIC_QUANT_H_ */
