/*
 * npusim: aclnnFusedQuantMatmul: out = act(x1 @ x2 · x2Scale · x1Scale (+ bias)) for int8 x1, x2,
 * act "gelu_tanh" or "gelu_erf". Declarations as in hicann/ops-nn matmul/fused_quant_mat_mul
 * (op_host/op_api/aclnn_fused_quant_matmul.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_QUANT_MATMUL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_QUANT_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedQuantMatmulGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* x1Scale, const aclTensor* x2Scale,
    const aclTensor* yScaleOptional, const aclTensor* x1OffsetOptional, const aclTensor* x2OffsetOptional,
    const aclTensor* yOffsetOptional, const aclTensor* biasOptional, const aclTensor* x3Optional,
    const char* fusedOpType, int64_t groupSizeOptional, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedQuantMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_QUANT_MATMUL_H_ */
