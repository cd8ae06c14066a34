/*
 * npusim: aclnnAddmv: out = beta * self + alpha * (mat @ vec).
 * Declarations as in hicann/ops-nn matmul/addmv/op_host/op_api/aclnn_addmv.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDMV_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDMV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddmvGetWorkspaceSize(const aclTensor* self, const aclTensor* mat,
                                                 const aclTensor* vec, const aclScalar* alpha,
                                                 const aclScalar* beta, aclTensor* out, int8_t cubeMathType,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddmv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADDMV_H_ */
