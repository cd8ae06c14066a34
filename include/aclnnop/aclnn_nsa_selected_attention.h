/*
 * npusim: aclnnNsaSelectedAttention: native sparse attention over the key/value blocks each
 * query selects (topkIndices), training forward with the softmax statistics.
 * Declarations as in hicann/ops-transformer
 * attention/nsa_selected_attention/docs/aclnnNsaSelectedAttention.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaSelectedAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* topkIndices,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, double scaleValue, int64_t headNum, char* inputLayout,
    int64_t sparseMode, int64_t selectedBlockSize, int64_t selectedBlockCount, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaSelectedAttention(void* workspace,
                                                                             uint64_t workspaceSize,
                                                                             aclOpExecutor* executor,
                                                                             const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_H_ */
