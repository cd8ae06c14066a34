/*
 * npusim: aclnnGroupedMatmulAdd: y[g] += x[k in g]^T · weight[k in g], groups along K (the
 * weight-gradient grouped matmul). Parameters in the order of hicann/ops-transformer
 * gmm/grouped_matmul_add (op definition and example).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_ADD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_ADD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupedMatmulAddGetWorkspaceSize(const aclTensor* x, const aclTensor* weight,
                                                            const aclTensor* groupList, aclTensor* yRef,
                                                            bool transposeX, bool transposeWeight, int64_t groupType,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupedMatmulAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GROUPED_MATMUL_ADD_H_ */
