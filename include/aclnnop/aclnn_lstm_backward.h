/*
 * npusim: aclnnLstmBackward: gradients of a multi-layer, optionally bidirectional LSTM from the
 * forward's kept gate activations and states (input, initial states, weights and biases).
 * Declarations as in hicann/ops-nn rnn/single_layer_lstm_grad docs/aclnnLstmBackward.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_LSTM_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_LSTM_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLstmBackwardGetWorkspaceSize(
    const aclTensor* input, const aclTensorList* hx, const aclTensorList* params, const aclTensor* dy,
    const aclTensor* dh, const aclTensor* dc, const aclTensorList* i, const aclTensorList* g,
    const aclTensorList* f, const aclTensorList* o, const aclTensorList* h, const aclTensorList* c,
    const aclTensorList* tanhc, const aclTensor* batchSizesOptional, bool hasBias, int64_t numLayers,
    double dropout, bool train, bool bidirectional, bool batchFirst, const aclBoolArray* outputMask,
    aclTensor* dxOut, aclTensor* dhPrevOut, aclTensor* dcPrevOut, aclTensorList* dparamsOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLstmBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_LSTM_BACKWARD_H_ */
