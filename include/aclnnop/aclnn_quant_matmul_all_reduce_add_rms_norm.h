/*
 * npusim: aclnnQuantMatmulAllReduceAddRmsNorm: the int8 product, AllReduce, + residual, RMS norm.
 * Declarations as in hicann/ops-transformer mc2/matmul_all_reduce_add_rms_norm/op_host/op_api/aclnn_quant_matmul_all_reduce_add_rms_norm.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* dequantScale,
    const aclTensor* residual, const aclTensor* gamma, double epsilon, const char* group, const char* reduceOp,
    int64_t commTurn, int64_t streamMode, const aclTensor* y, const aclTensor* normOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantMatmulAllReduceAddRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_ */
