/*
 * npusim: aclnnEmbeddingBag: bags of embedding rows reduced by sum, mean or max.
 * Declarations as in hicann/ops-nn index/embedding_bag/op_api/aclnn_embedding_bag.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_BAG_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_BAG_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingBagGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices, const aclTensor* offsets, bool scaleGradByFreq, int64_t mode, bool sparse, const aclTensor* perSampleWeights, bool includeLastOffset, int64_t paddingIdx, aclTensor* output, aclTensor* offset2bag, aclTensor* bagSize, aclTensor* maxIndices, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbeddingBag(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_EMBEDDING_BAG_H_ */
