/*
 * npusim: aclnnApplyRotaryPosEmbV2: ApplyRotaryPosEmb with the rotation named (half, quarter, interleave).
 * Declarations as in hicann/ops-transformer posembedding/apply_rotary_pos_emb
 * docs/aclnnApplyRotaryPosEmbV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyRotaryPosEmbV2GetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef,
                                                               const aclTensor* cos, const aclTensor* sin,
                                                               int64_t layout, char* rotaryMode,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyRotaryPosEmbV2(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_ */
