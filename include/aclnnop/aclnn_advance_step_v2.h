/*
 * npusim: aclnnAdvanceStepV2: one decoding step with speculative tokens.
 * Signatures as documented in hicann/ops-nn optim/advance_step/docs/aclnnAdvanceStepV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADVANCE_STEP_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADVANCE_STEP_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdvanceStepV2GetWorkspaceSize(const aclTensor* inputTokens, const aclTensor* sampledTokenIds, const aclTensor* inputPositions, const aclTensor* seqLens, const aclTensor* slotMapping, const aclTensor* blockTables, const aclTensor* specToken, const aclTensor* acceptedNum, int64_t numSeqs, int64_t numQueries, int64_t blockSize, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAdvanceStepV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_ADVANCE_STEP_V2_H_ */
