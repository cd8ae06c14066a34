/*
 * npusim: aclnnRenormV2: aclnnRenorm with p, dim and maxNorm as attributes
 * Declarations as in hicann/ops-nn experimental/norm/renorm_v2 (op_host/renorm_v2_def.cpp).
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_RENORM_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_RENORM_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRenormV2GetWorkspaceSize(const aclTensor* x, float p, int64_t dim, float maxNorm, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRenormV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_RENORM_V2_H_ */
