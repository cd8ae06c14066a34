/*
 * npusim: aclnnUnfoldGrad: gradient of Tensor.unfold.
 * Declarations as in hicann/ops-math conversion/unfold_grad/op_api/aclnn_unfold_grad.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_UNFOLD_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_UNFOLD_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUnfoldGradGetWorkspaceSize(const aclTensor* gradOut, const aclIntArray* inputSizes, int64_t dim, int64_t size, int64_t step, const aclTensor* gradIn, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnUnfoldGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_UNFOLD_GRAD_H_ */
