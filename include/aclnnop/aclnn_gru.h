/*
 * npusim: aclnnGRU: a multi-layer, optionally bidirectional GRU over a sequence (gates r, z, n),
 * with the per-step gate values kept for the backward when training.
 * Declarations as in hicann/ops-nn rnn/gru docs/aclnnGRU.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_GRU_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_GRU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGRUGetWorkspaceSize(const aclTensor* input, const aclTensorList* params,
                                               const aclTensor* hx, const aclTensor* batchSizes, bool hasBias,
                                               int64_t numLayers, double dropout, bool train,
                                               bool bidirection, bool batchFirst, aclTensor* output,
                                               aclTensor* hy, aclTensorList* rOut, aclTensorList* zOut,
                                               aclTensorList* nOut, aclTensorList* hnOut, aclTensorList* hOut,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGRU(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_GRU_H_ */
