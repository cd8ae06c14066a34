/*
 * npusim: aclnnMatmul (hicann/ops-nn matmul/mat_mul_v3/op_host/op_api/aclnn_matmul.h).
 * out = self @ mat2 for 1-6 dimensional operands (torch.matmul rules, batch broadcasting).
 * cubeMathType: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32,
 * 4 USE_FP32_ADD (see docs/aclnnMatmul.md for what each does on Atlas A2).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MATMUL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                  aclTensor* out, int8_t cubeMathType,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

/* mat2 in FRACTAL_NZ (converted by aclnnTransMatmulWeight); self and out 2-D. */
ACLNN_API aclnnStatus aclnnMatmulWeightNzGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                          aclTensor* out, int8_t cubeMathType,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMatmulWeightNz(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MATMUL_H_ */
