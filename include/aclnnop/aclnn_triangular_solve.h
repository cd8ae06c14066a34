/*
 * npusim: aclnnTriangularSolve, X with op(A) X = b for triangular A.
 * Declarations as in hicann/ops-math math/triangular_solve/docs/aclnnTriangularSolve.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTriangularSolveGetWorkspaceSize(const aclTensor* self, const aclTensor* A, bool upper, bool transpose, bool unitriangular, aclTensor* xOut, aclTensor* mOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTriangularSolve(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_ */
