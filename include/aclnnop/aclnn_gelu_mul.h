/*
 * npusim: aclnnGeluMul, gelu(x1) * x2 for the halves of input along its last dimension.
 * Declarations as in hicann/ops-nn activation/gelu_mul/docs/aclnnGeluMul.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_MUL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_MUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluMulGetWorkspaceSize(const aclTensor* input, char* approximateOptional, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GELU_MUL_H_ */
