/*
 * npusim: aclnnIncreFlashAttentionV4: attention of new query tokens over a KV cache
 * (see docs/operators/attention.md). Declarations as in hicann/ops-transformer
 * attention/incre_flash_attention/docs/aclnnIncreFlashAttentionV4.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_INCRE_FLASH_ATTENTION_V4_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_INCRE_FLASH_ATTENTION_V4_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnIncreFlashAttentionV4GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclTensor* dequantScale1,
    const aclTensor* quantScale1, const aclTensor* dequantScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, const aclTensor* antiquantScale, const aclTensor* antiquantOffset,
    const aclTensor* blocktable, const aclTensor* kvPaddingSize, int64_t numHeads, double scaleValue,
    char* inputLayout, int64_t numKeyValueHeads, int64_t blockSize, int64_t innerPrecise,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnIncreFlashAttentionV4(void* workspace,
                                                                              uint64_t workspaceSize,
                                                                              aclOpExecutor* executor,
                                                                              const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_INCRE_FLASH_ATTENTION_V4_H_ */
