/*
 * npusim: aclnnDiag: a diagonal matrix from a vector, or a matrix's diagonal.
 * Declarations as in hicann/ops-math conversion/diag_v2/op_api/aclnn_diag.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDiagGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDiag(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_H_ */
