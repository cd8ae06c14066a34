/*
 * npusim: aclnnEmbeddingDenseGrad: the embedding's weight gradient (custom operator).
 * Declarations as in hicann/ops-nn experimental/index/embedding_dense_grad/op_host/embedding_dense_grad_def.cpp.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_DENSE_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_DENSE_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingDenseGradGetWorkspaceSize(const aclTensor* grad, const aclTensor* indices, int64_t numWeights, int64_t paddingIdx, bool scaleGradByFreq, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbeddingDenseGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_DENSE_GRAD_H_ */
