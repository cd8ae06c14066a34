/*
 * npusim: aclnnSituGlu, beta tanh(gate / beta) sigmoid(gate) * up (up through linearBeta tanh when linearBeta > 0).
 * Declarations as in hicann/ops-nn activation/situ_glu/docs/aclnnSituGlu.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SITU_GLU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SITU_GLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSituGluGetWorkspaceSize(const aclTensor* x, int64_t dim, double beta, double linearBeta, bool activateLeft, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSituGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SITU_GLU_H_ */
