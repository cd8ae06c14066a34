/*
 * npusim: aclnnBatchMatmulQuant: out = int8 quantisation of (x1 @ x2 + bias) for fp16 x1, x2.
 * Declarations as in hicann/ops-nn matmul/batch_matmul_quant (op_api/aclnn_batchmatmul_quant.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCHMATMUL_QUANT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCHMATMUL_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchMatmulQuantGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* quantParam, const aclTensor* bias,
    bool transposeX1, bool transposeX2, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchMatmulQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCHMATMUL_QUANT_H_ */
