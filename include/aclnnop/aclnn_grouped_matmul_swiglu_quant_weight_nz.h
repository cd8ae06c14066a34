/*
 * npusim: aclnnGroupedMatmulSwigluQuantWeightNZ: aclnnGroupedMatmulSwigluQuant with the weight in
 * FRACTAL_NZ.
 * Declarations as in hicann/ops-transformer gmm/grouped_matmul_swiglu_quant
 * op_host/op_api/aclnn_grouped_matmul_swiglu_quant_weight_nz.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_WEIGHT_NZ_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* bias, const aclTensor* offset,
    const aclTensor* weightScale, const aclTensor* xScale, const aclTensor* groupList, aclTensor* output,
    aclTensor* outputScale, aclTensor* outputOffset, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupedMatmulSwigluQuantWeightNZ(void* workspace, uint64_t workspaceSize,
                                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_WEIGHT_NZ_H_
