/*
 * npusim: aclnnGroupQuant: y = round(x * scale[group] + offset) for groups of rows.
 * Declarations as in hicann/ops-nn quant/group_quant docs/aclnnGroupQuant.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                      const aclTensor* groupIndex, const aclTensor* offsetOptional,
                                                      int32_t dstType, aclTensor* y, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_QUANT_H_ */
