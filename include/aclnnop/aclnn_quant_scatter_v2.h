/*
 * npusim: aclnnInplaceQuantScatterV2: aclnnInplaceQuantScatter with a rounding mode.
 * Signatures as documented in hicann/ops-nn index/quant_update_scatter/docs/aclnnInplaceQuantScatterV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_SCATTER_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_SCATTER_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceQuantScatterV2GetWorkspaceSize(aclTensor* selfRef, const aclTensor* indices, const aclTensor* updates, const aclTensor* quantScales, const aclTensor* quantZeroPoints, int64_t axis, int64_t quantAxis, int64_t reduction, const char* roundMode, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceQuantScatterV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_SCATTER_V2_H_ */
