/*
 * npusim: aclnnGlu, A * sigmoid(B) for the halves A, B of self along dim.
 * Declarations as in hicann/ops-nn activation/glu/op_api/aclnn_glu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGluGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GLU_H_ */
