/*
 * npusim: aclnnEluV2, scale * (x > 0 ? x : alpha * (exp(x * inputScale) - 1)).
 * Declarations as in hicann/ops-nn experimental/activation/elu_v2/op_host/op_api/aclnn_elu_v2.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEluV2GetWorkspaceSize(const aclTensor* self, const aclScalar* alpha, const aclScalar* scale, const aclScalar* inputScale, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ELU_V2_H_ */
