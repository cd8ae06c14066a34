/*
 * npusim: aclnnGeGlu (A * gelu(B)) and aclnnGeGluV3 (the activated half chosen by activateLeft).
 * Declarations as in hicann/ops-nn activation/ge_glu_v2/op_api/aclnn_geglu.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GEGLU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GEGLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate, aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate, bool activateLeft, aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeGluV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GEGLU_H_ */
