/*
 * npusim: aclnnEmbedding: out = rows of weight picked by indices.
 * Declarations as in hicann/ops-nn index/embedding/op_api/aclnn_embedding.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbedding(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_H_ */
