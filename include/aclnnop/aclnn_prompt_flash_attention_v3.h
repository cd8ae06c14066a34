/*
 * npusim: aclnnPromptFlashAttentionV3: attention over a full prompt (see docs/operators/attention.md).
 * Declarations as in hicann/ops-transformer
 * attention/prompt_flash_attention/op_host/op_api/aclnn_prompt_flash_attention_v3.h.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_PROMPT_FLASH_ATTENTION_V3_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_PROMPT_FLASH_ATTENTION_V3_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnPromptFlashAttentionV3GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclIntArray* actualSeqLengthsKv,
    const aclTensor* deqScale1, const aclTensor* quantScale1, const aclTensor* deqScale2,
    const aclTensor* quantScale2, const aclTensor* quantOffset2, int64_t numHeads, double scaleValue,
    int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads, int64_t sparseMode,
    int64_t innerPrecise, const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnPromptFlashAttentionV3(void* workspace,
                                                                               uint64_t workspaceSize,
                                                                               aclOpExecutor* executor,
                                                                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_PROMPT_FLASH_ATTENTION_V3_H_ */
