/*
 * npusim: aclnnInplaceFillDiagonal: fills the main diagonal.
 * Declarations as in hicann/ops-math conversion/fill_diagonal_v2/op_host/op_api/aclnn_fill_diagonal.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_DIAGONAL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_DIAGONAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceFillDiagonalGetWorkspaceSize(aclTensor* selfRef, const aclScalar* fillValue, bool wrap, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceFillDiagonal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_FILL_DIAGONAL_H_ */
