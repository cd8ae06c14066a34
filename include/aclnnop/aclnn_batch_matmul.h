/*
 * npusim: aclnnBatchMatMul: out[b] = self[b] @ mat2[b] for 3-D operands.
 * Declarations as in hicann/ops-nn matmul/batch_mat_mul_v3/op_host/op_api/aclnn_batch_matmul.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_MATMUL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchMatMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

/* mat2 in FRACTAL_NZ (converted by aclnnTransMatmulWeight); self, mat2 and out 3-D. */
ACLNN_API aclnnStatus aclnnBatchMatMulWeightNzGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                               aclTensor* out, int8_t cubeMathType,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchMatMulWeightNz(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_BATCH_MATMUL_H_ */
