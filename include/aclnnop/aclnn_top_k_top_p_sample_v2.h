/*
 * npusim: aclnnTopKTopPSampleV2: top-k, top-p, min-p and exponential sampling of logits.
 * Signatures as documented in hicann/ops-nn index/top_k_top_p_sample_v2/docs/aclnnTopKTopPSampleV2.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_V2_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTopKTopPSampleV2GetWorkspaceSize(const aclTensor* logits, const aclTensor* topK, const aclTensor* topP, const aclTensor* q, const aclTensor* minPs, double eps, bool isNeedLogits, int64_t topKGuess, int64_t ksMax, bool inputIsLogits, bool isNeedSampleResult, const aclTensor* logitsSelectIdx, const aclTensor* logitsTopKPSelect, const aclTensor* logitsIdx, const aclTensor* logitsSortMasked, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTopKTopPSampleV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_V2_H_ */
