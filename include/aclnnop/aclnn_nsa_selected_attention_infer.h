/*
 * npusim: aclnnNsaSelectedAttentionInfer: native sparse attention at inference over the
 * selected blocks of a paged KV cache.
 * Declarations as in hicann/ops-transformer
 * attention/nsa_selected_attention_infer/docs/aclnnNsaSelectedAttentionInfer.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_INFER_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_INFER_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaSelectedAttentionInferGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* topkIndices,
    const aclTensor* attenMaskOptional, const aclTensor* blockTableOptional,
    const aclIntArray* actualQSeqLenOptional, const aclIntArray* actualKvSeqLenOptional, char* layoutOptional,
    int64_t numHeads, int64_t numKeyValueHeads, int64_t selectBlockSize, int64_t selectBlockCount,
    int64_t pageBlockSize, double scaleValue, int64_t sparseMode, aclTensor* output, uint64_t* workspaceSize,
    aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaSelectedAttentionInfer(void* workspace,
                                                                                  uint64_t workspaceSize,
                                                                                  aclOpExecutor* executor,
                                                                                  const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_INFER_H_ */
