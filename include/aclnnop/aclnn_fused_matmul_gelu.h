/*
 * npusim: aclnnFusedMatmulGelu: y = GELU_tanh(x @ weight^T + bias), bias optional.
 * Declarations as in hicann/ops-nn experimental/matmul/fused_matmul_gelu/docs/aclnnFusedMatmulGelu.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_MATMUL_GELU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_MATMUL_GELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFusedMatmulGeluGetWorkspaceSize(const aclTensor* x, const aclTensor* weight,
                                                           const aclTensor* bias, int64_t approximate,
                                                           aclTensor* y, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFusedMatmulGelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FUSED_MATMUL_GELU_H_ */
