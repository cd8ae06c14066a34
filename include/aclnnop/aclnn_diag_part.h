/*
 * npusim: aclnnDiagPart: the diagonal of x (custom operator).
 * Declarations as in hicann/ops-math experimental/math/diag_part/op_host/diag_part_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_PART_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_PART_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDiagPartGetWorkspaceSize(const aclTensor* x, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDiagPart(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_DIAG_PART_H_ */
