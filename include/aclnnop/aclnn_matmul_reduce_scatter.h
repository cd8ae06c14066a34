/*
 * npusim: aclnnMatmulReduceScatter: output = ReduceScatter(x1 @ x2 + bias), rank r keeping rows [r*m/n, (r+1)*m/n).
 * Declarations as in hicann/ops-transformer mc2/matmul_reduce_scatter/op_host/op_api/aclnn_matmul_reduce_scatter.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_MATMUL_REDUCE_SCATTER_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_MATMUL_REDUCE_SCATTER_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMatmulReduceScatterGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                                const aclTensor* bias, const char* group,
                                                                const char* reduceOp, int64_t commTurn,
                                                                int64_t streamMode, const aclTensor* output,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMatmulReduceScatter(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_MATMUL_REDUCE_SCATTER_H_ */
