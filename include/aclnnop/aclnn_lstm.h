/*
 * npusim: aclnnLSTM: a multi-layer, optionally bidirectional LSTM over a sequence (gates i, f, g, o),
 * with the per-step gate activations and states kept for the backward when training.
 * Declarations as in hicann/ops-nn rnn/dynamic_rnn docs/aclnnLSTM.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LSTM_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LSTM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLSTMGetWorkspaceSize(
    const aclTensor* input, const aclTensorList* params, const aclTensorList* hx, const aclTensor* batchSizes,
    bool hasBias, int64_t numLayers, double dropout, bool train, bool bidirectional, bool batchFirst,
    aclTensor* output, aclTensor* hy, aclTensor* cy, aclTensorList* iOut, aclTensorList* jOut,
    aclTensorList* fOut, aclTensorList* oOut, aclTensorList* hOut, aclTensorList* cOut,
    aclTensorList* tanhCOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLSTM(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LSTM_H_ */
