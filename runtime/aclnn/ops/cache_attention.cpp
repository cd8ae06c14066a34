// Phase 1 of the KV-cache attention entry points (cache_attention.h).
#include "runtime/aclnn/ops/cache_attention.h"

#include <fmt/format.h>

#include <climits>
#include <string>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {
namespace {

// Sequence length of `t` under `layout` (BSH/BSND: dim 1, BNSD: dim 2), or -1.
int64_t sequenceLength(const TensorDesc& t, const std::string& layout) {
  if ((layout == "BSH" && t.rank() == 3) || (layout == "BSND" && t.rank() == 4)) return t.shape[1];
  if (layout == "BNSD" && t.rank() == 4) return t.shape[2];
  return -1;
}

// 161002 unless every given length equals `full` (shorter sequences are not simulated).
int32_t checkFullLengths(const char* api, const char* name, const aclIntArray* lens, int64_t full) {
  if (lens == nullptr) return kSuccess;
  for (int64_t len : lens->values) {
    if (len != full) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} {} differs from the full length {}: shorter sequences are not simulated",
                              name, len, full));
    }
  }
  return kSuccess;
}

}  // namespace

int32_t buildCacheAttention(const FlashAttentionApi& a, const CacheAttentionArgs& c,
                            std::initializer_list<std::pair<const char*, const void*>> notSimulated,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = a.api;
  int32_t st = checkNotNull(
      api, {{"query", c.query}, {"key", c.key}, {"value", c.value}, {"inputLayout", c.inputLayout}});
  if (st != kSuccess) return st;
  if (c.key->items.size() != 1 || c.value->items.size() != 1 || c.key->items[0] == nullptr ||
      c.value->items[0] == nullptr) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("key and value must each be a list of one tensor holding every batch (lists of {} and {} "
                    "per-batch tensors are not simulated)",
                    c.key->items.size(), c.value->items.size()));
  }
  for (const auto& [name, p] : notSimulated) {
    if (p != nullptr)
      return fail(api, kErrParamInvalid, fmt::format("{} is not simulated (pass null)", name));
  }
  if (c.query->desc.dtype != ACL_FLOAT16 && c.query->desc.dtype != ACL_BF16) {
    return fail(api, kErrParamInvalid, "query must be fp16 or bf16 (int8 inputs are not simulated)");
  }
  const std::string layout(c.inputLayout);
  const aclTensor* k = c.key->items[0];
  if ((st = checkFullLengths(api, "actualSeqLengths", c.actualSeqLengths,
                             sequenceLength(c.query->desc, layout))) != kSuccess ||
      (st = checkFullLengths(api, "actualSeqLengthsKv", c.actualSeqLengthsKv,
                             sequenceLength(k->desc, layout))) != kSuccess ||
      (st = checkKeyValueHeads(api, c.numHeads, c.numKeyValueHeads, k, c.inputLayout)) != kSuccess) {
    return st;
  }
  // Sparse mode 0 without a mask computes every key (the docs: pre/nextTokens become INT_MAX).
  const bool unbounded = c.sparseMode == 0 && c.attenMask == nullptr;
  return buildFlashAttention(a, c.query, k, c.value->items[0], nullptr, nullptr, nullptr, c.attenMask,
                             nullptr, c.scaleValue, 1.0, unbounded ? INT_MAX : c.preTokens,
                             unbounded ? INT_MAX : c.nextTokens, c.numHeads, c.inputLayout, c.sparseMode,
                             nullptr, nullptr, c.attentionOut, workspaceSize, executor);
}

}  // namespace npusim::aclnn
