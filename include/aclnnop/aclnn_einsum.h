/*
 * npusim: aclnnEinsum: two tensors combined by an Einstein-summation equation
 * ("abcd,abced->abce" or "a,b->ab", the equations the public operator registers).
 * Declarations as in hicann/ops-nn matmul/batch_mat_mul_v3 (op_api/aclnn_einsum.h).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EINSUM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EINSUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEinsumGetWorkspaceSize(const aclTensorList* tensors, const char* equation,
                                                  aclTensor* output, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEinsum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EINSUM_H_ */
