/*
 * npusim: aclnnNsaCompressAttention: native sparse attention over the compressed keys, with the
 * importance of each select block and the top-k blocks for the selected branch.
 * Declarations as in hicann/ops-transformer
 * attention/nsa_compress_attention/docs/aclnnNsaCompressAttention.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* attenMaskOptional,
    const aclTensor* topkMaskOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualCmpSeqKvLenOptional, const aclIntArray* actualSelSeqKvLenOptional,
    double scaleValue, int64_t headNum, char* inputLayout, int64_t sparseMode, int64_t compressBlockSize,
    int64_t compressStride, int64_t selectBlockSize, int64_t selectBlockCount, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* attentionOutOut, const aclTensor* topkIndicesOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressAttention(void* workspace,
                                                                             uint64_t workspaceSize,
                                                                             aclOpExecutor* executor,
                                                                             const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_H_ */
