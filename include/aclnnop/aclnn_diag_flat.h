/*
 * npusim: aclnnDiagFlat: a diagonal matrix from flattened self.
 * Declarations as in hicann/ops-math conversion/diag_flat/op_api/aclnn_diag_flat.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_FLAT_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_FLAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDiagFlatGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDiagFlat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_FLAT_H_ */
