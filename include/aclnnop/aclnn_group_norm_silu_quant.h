/*
 * npusim: aclnnGroupNormSiluQuant (runtime/aclnn/ops/group_norm_silu_quant.cpp).
 * Declarations as in hicann/ops-nn norm/group_norm_silu_quant (docs/aclnnGroupNormSiluQuant.md).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SILU_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SILU_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormSiluQuantGetWorkspaceSize(
    const aclTensor* self, const aclTensor* gammaOptional, const aclTensor* betaOptional,
    const aclTensor* quantScale, int64_t group, double eps, bool activateSilu, aclTensor* out,
    aclTensor* meanOut, aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupNormSiluQuant(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUP_NORM_SILU_QUANT_H_ */
