#pragma once
// The attention engine of flash_attention_score.cpp, shared by the attention entry points
// (aclnnFlashAttentionScore[V2], aclnnPromptFlashAttentionV3, aclnnIncreFlashAttentionV4): checks, layouts
// BSH/SBH/BSND/BNSD, grouped key/value heads, mask and sparse modes 0-3, and the cube/vector cost model.
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/op_instance.h"

namespace npusim::aclnn {

struct FlashAttentionApi {
  const char* api;        // "aclnnPromptFlashAttentionV3GetWorkspaceSize"
  const char* opName;     // name on the trace
  const char* outName;    // the attention output's parameter name, for messages
  bool statsRequired;     // softmaxMaxOut / softmaxSumOut must be given (else both may be null)
  bool int8Mask = false;  // the mask may also be int8 (IncreFlashAttention), not only bool/uint8
};

// out = softmax(scale * Q K^T, masked) V per batch and head. realShift, dropMask, paddingMask
// and keepProb != 1 are refused (161002: not simulated); `prefix` is not read.
int32_t buildFlashAttention(const FlashAttentionApi& a, const aclTensor* query, const aclTensor* key,
                            const aclTensor* value, const aclTensor* realShift, const aclTensor* dropMask,
                            const aclTensor* paddingMask, const aclTensor* attenMask,
                            const aclIntArray* prefix, double scaleValue, double keepProb, int64_t preTokens,
                            int64_t nextTokens, int64_t headNum, const char* inputLayout, int64_t sparseMode,
                            const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
                            const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor);

// numKeyValueHeads of the prompt/incremental entry points: 0 (= numHeads) or a divisor of
// numHeads equal to key's head count in BSND/BNSD (the engine takes the heads from the shape).
int32_t checkKeyValueHeads(const char* api, int64_t numHeads, int64_t numKeyValueHeads, const aclTensor* key,
                           const char* inputLayout);

// Whether the bool/uint8 attention mask ([S1, S2] or [B|1, N|1, S1, S2], 1 = masked) hides key
// j from query i of batch b, head n (the forward and the backward read it alike).
bool attentionMasked(const HostTensor& mask, int64_t b, int64_t n, int64_t i, int64_t j);

}  // namespace npusim::aclnn
