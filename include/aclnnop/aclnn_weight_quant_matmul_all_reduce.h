/*
 * npusim: aclnnWeightQuantMatmulAllReduce: output = AllReduce(x1 @ ((x2 + antiquantOffset) * antiquantScale) + bias + x3).
 * Declarations as in hicann/ops-transformer mc2/matmul_all_reduce/op_host/op_api/aclnn_weight_quant_matmul_all_reduce.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_MATMUL_ALL_REDUCE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_MATMUL_ALL_REDUCE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnWeightQuantMatmulAllReduceGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffset, const aclTensor* x3, const char* group, const char* reduceOp, int64_t commTurn,
    int64_t streamMode, int64_t antiquantGroupSize, const aclTensor* output, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnWeightQuantMatmulAllReduce(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_WEIGHT_QUANT_MATMUL_ALL_REDUCE_H_ */
