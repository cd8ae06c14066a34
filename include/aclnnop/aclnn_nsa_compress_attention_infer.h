/*
 * npusim: aclnnNsaCompressAttentionInfer: the compressed attention of native sparse attention at
 * inference over a paged compressed KV cache, with the top-k select blocks.
 * Declarations as in hicann/ops-transformer
 * attention/nsa_compress_attention_infer/docs/aclnnNsaCompressAttentionInfer.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_INFER_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_INFER_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressAttentionInferGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value,
    const aclTensor* attentionMaskOptional, const aclTensor* blockTableOptional,
    const aclIntArray* actualQSeqLenOptional, const aclIntArray* actualCmpKvSeqLenOptional,
    const aclIntArray* actualSelKvSeqLenOptional, const aclTensor* topKMaskOptional, int64_t numHeads,
    int64_t numKeyValueHeads, int64_t selectBlockSize, int64_t selectBlockCount, int64_t compressBlockSize,
    int64_t compressBlockStride, double scaleValue, char* layoutOptional, int64_t pageBlockSize,
    int64_t sparseMode, const aclTensor* output, const aclTensor* topKOutput, uint64_t* workspaceSize,
    aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressAttentionInfer(void* workspace,
                                                                                  uint64_t workspaceSize,
                                                                                  aclOpExecutor* executor,
                                                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_INFER_H_ */
