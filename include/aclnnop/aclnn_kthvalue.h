/*
 * npusim: aclnnKthvalue: the k-th smallest value along a dimension.
 * Declarations as in hicann/ops-nn index/gather_v2/op_api/aclnn_kthvalue.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_KTHVALUE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_KTHVALUE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnKthvalueGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool keepdim, aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnKthvalue(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_KTHVALUE_H_ */
