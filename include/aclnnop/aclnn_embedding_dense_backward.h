/*
 * npusim: aclnnEmbeddingDenseBackward: the embedding's weight gradient.
 * Declarations as in hicann/ops-nn index/embedding_dense_grad_v2/op_api/aclnn_embedding_dense_backward.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(const aclTensor* grad, const aclTensor* indices, uint64_t numWeights, uint64_t paddingIdx, bool scaleGradByFreq, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbeddingDenseBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H_ */
