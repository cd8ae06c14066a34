/*
 * npusim: aclnnEmbeddingRenorm: the rows of selfRef named by indices renormalised to maxNorm in place
 * Declarations as in hicann/ops-nn norm/renorm docs/aclnnEmbeddingRenorm.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_RENORM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_RENORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingRenormGetWorkspaceSize(aclTensor* selfRef, const aclTensor* indices, double maxNorm, double normType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbeddingRenorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_RENORM_H_ */
