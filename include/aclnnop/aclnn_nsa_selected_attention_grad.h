/*
 * npusim: aclnnNsaSelectedAttentionGrad: dq, dk, dv of aclnnNsaSelectedAttention.
 * Declarations as in hicann/ops-transformer
 * attention/nsa_selected_attention_grad/docs/aclnnNsaSelectedAttentionGrad.md.
 */
#ifndef NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_GRAD_H_
#define NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_GRAD_H_

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaSelectedAttentionGradGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* attentionOut,
    const aclTensor* attentionOutGrad, const aclTensor* softmaxMax, const aclTensor* softmaxSum,
    const aclTensor* topkIndices, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, const aclTensor* attenMaskOptional, double scaleValue,
    int64_t selectedBlockSize, int64_t selectedBlockCount, int64_t headNum, char* inputLayout,
    int64_t sparseMode, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaSelectedAttentionGrad(void* workspace,
                                                                                 uint64_t workspaceSize,
                                                                                 aclOpExecutor* executor,
                                                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_INCLUDE_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_GRAD_H_ */
