/*
 * npusim: aclnnAllGatherMatmul: gatherOut = AllGather(x1); output = gatherOut @ x2 + bias.
 * Declarations as in hicann/ops-transformer mc2/all_gather_matmul/op_host/op_api/aclnn_all_gather_matmul.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ALL_GATHER_MATMUL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ALL_GATHER_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAllGatherMatmulGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                                            const char* group, int64_t gatherIndex, int64_t commTurn,
                                                            int64_t streamMode, const aclTensor* output,
                                                            const aclTensor* gatherOut, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAllGatherMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ALL_GATHER_MATMUL_H_ */
