/*
 * npusim: aclnnThnnFusedLstmCell: the element-wise part of one LSTM step after its two matmuls
 * (gates = inputGates + hiddenGates + biases; i, f, g, o activations; new cell and hidden state).
 * Declarations as in hicann/ops-nn rnn/thnn_fused_lstm_cell docs/aclnnThnnFusedLstmCell.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnThnnFusedLstmCellGetWorkspaceSize(
    const aclTensor* inputGates, const aclTensor* hiddenGates, const aclTensor* cx,
    const aclTensor* inputBiasOptional, const aclTensor* hiddenBiasOptional, aclTensor* hyOut,
    aclTensor* cyOut, aclTensor* storageOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnThnnFusedLstmCell(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_H_ */
