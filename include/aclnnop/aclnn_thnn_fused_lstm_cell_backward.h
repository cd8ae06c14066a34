/*
 * npusim: aclnnThnnFusedLstmCellBackward: gradients of the fused LSTM cell's element-wise part
 * (pre-activation gates, previous cell state and, with hasBias, the bias summed over the batch).
 * Declarations as in hicann/ops-nn rnn/thnn_fused_lstm_cell_grad docs/aclnnThnnFusedLstmCellBackward.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_BACKWARD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnThnnFusedLstmCellBackwardGetWorkspaceSize(
    const aclTensor* gradHyOptional, const aclTensor* gradCOptional, const aclTensor* cx, const aclTensor* cy,
    const aclTensor* storage, bool hasBias, aclTensor* gradGatesOut, aclTensor* gradCxOut,
    aclTensor* gradBiasOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnThnnFusedLstmCellBackward(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_BACKWARD_H_ */
