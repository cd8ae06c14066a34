#pragma once
// Phase 1 of the attention entry points that read a KV cache given as tensor lists
// (aclnnIncreFlashAttentionV4, aclnnFusedInferAttentionScoreV4), on the attention engine of
// flash_attention.h. The cache must be one tensor per list holding every batch; actual lengths
// are accepted when they equal the full lengths; every tensor in `notSimulated` must be null.
#include <cstdint>
#include <initializer_list>
#include <utility>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/flash_attention.h"

namespace npusim::aclnn {

struct CacheAttentionArgs {
  const aclTensor* query;
  const aclTensorList* key;
  const aclTensorList* value;
  const aclTensor* attenMask;
  const aclIntArray* actualSeqLengths;    // query lengths, or null
  const aclIntArray* actualSeqLengthsKv;  // cache lengths, or null
  int64_t numHeads;
  double scaleValue;
  int64_t preTokens, nextTokens, sparseMode;
  const char* inputLayout;
  int64_t numKeyValueHeads;
  const aclTensor* attentionOut;
};

int32_t buildCacheAttention(const FlashAttentionApi& a, const CacheAttentionArgs& c,
                            std::initializer_list<std::pair<const char*, const void*>> notSimulated,
                            uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
