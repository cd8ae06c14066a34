/*
 * npusim: aclnnSwiGluGrad, the gradient of aclnnSwiGlu.
 * Declarations as in hicann/ops-nn activation/swi_glu_grad/docs/aclnnSwiGluGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWI_GLU_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWI_GLU_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwiGluGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* x, int64_t dim, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwiGluGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SWI_GLU_GRAD_H_ */
