/*
 * npusim: aclnnSiluMul, silu(x) * y.
 * Declarations as in hicann/ops-nn experimental/activation/silu_mul (generated from its op definition).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_SILU_MUL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_SILU_MUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSiluMulGetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSiluMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_SILU_MUL_H_ */
