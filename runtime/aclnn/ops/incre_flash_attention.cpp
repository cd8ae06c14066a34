// aclnnIncreFlashAttentionV4 (ops-transformer attention/incre_flash_attention/docs/
// aclnnIncreFlashAttentionV4.md): the new query tokens attend to the KV cache,
// attentionOut = softmax(scaleValue * Q K^T, masked) V on the attention engine
// (flash_attention.h), layouts BSH/BSND/BNSD, numKeyValueHeads dividing numHeads, an optional
// bool/int8/uint8 mask [B, 1, 1, S2] (1 = masked). The cache is given as a one-tensor list
// holding every batch. Not simulated (161002 with the reason): a list of per-batch tensors,
// actual lengths shorter than the cache, pseShift, the (anti)quantisation tensors, the paged
// cache (blocktable) and kvPaddingSize.
#include <fmt/format.h>

#include <climits>
#include <string>

#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/flash_attention.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnIncreFlashAttentionV4",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K^T + mask) V (decode over a KV cache)"};
const OpRegistrar kRegistrar(kInfo);

const FlashAttentionApi kApi{"aclnnIncreFlashAttentionV4GetWorkspaceSize", "aclnnIncreFlashAttentionV4",
                             "attentionOut", false, true};

// Sequence length of the cache tensor `t` under `layout` (BSH/BSND: dim 1, BNSD: dim 2), or -1.
int64_t cacheLength(const TensorDesc& t, const std::string& layout) {
  if ((layout == "BSH" && t.rank() == 3) || (layout == "BSND" && t.rank() == 4)) return t.shape[1];
  if (layout == "BNSD" && t.rank() == 4) return t.shape[2];
  return -1;
}

int32_t build(const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
              const aclTensor* pseShift, const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
              std::initializer_list<const aclTensor*> quantTensors, const aclTensor* blocktable,
              const aclTensor* kvPaddingSize, int64_t numHeads, double scaleValue, const char* inputLayout,
              int64_t numKeyValueHeads, const aclTensor* attentionOut, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const char* api = kApi.api;
  int32_t st =
      checkNotNull(api, {{"query", query}, {"key", key}, {"value", value}, {"inputLayout", inputLayout}});
  if (st != kSuccess) return st;
  if (key->items.size() != 1 || value->items.size() != 1 || key->items[0] == nullptr ||
      value->items[0] == nullptr) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("key and value must each be a list of one tensor holding every batch (lists of {} and {} "
                    "per-batch tensors are not simulated)",
                    key->items.size(), value->items.size()));
  }
  for (const aclTensor* t : quantTensors) {
    if (t != nullptr) {
      return fail(
          api, kErrParamInvalid,
          "the quantisation tensors (dequantScale1/2, quantScale1/2, quantOffset2, antiquantScale/Offset) "
          "are not simulated");
    }
  }
  if (blocktable != nullptr || kvPaddingSize != nullptr) {
    return fail(api, kErrParamInvalid, "the paged KV cache (blocktable) and kvPaddingSize are not simulated");
  }
  if (query->desc.dtype != ACL_FLOAT16 && query->desc.dtype != ACL_BF16) {
    return fail(api, kErrParamInvalid, "query must be fp16 or bf16 (int8 inputs are not simulated)");
  }
  const std::string layout(inputLayout);
  const aclTensor* k = key->items[0];
  const int64_t S2 = cacheLength(k->desc, layout);
  if (actualSeqLengths != nullptr) {
    for (int64_t len : actualSeqLengths->values) {
      if (len != S2) {
        return fail(
            api, kErrParamInvalid,
            fmt::format("actualSeqLengths {} differs from the cache length {}: shorter sequences are not "
                        "simulated",
                        len, S2));
      }
    }
  }
  if ((st = checkKeyValueHeads(api, numHeads, numKeyValueHeads, k, inputLayout)) != kSuccess) return st;
  return buildFlashAttention(kApi, query, k, value->items[0], pseShift, nullptr, nullptr, attenMask, nullptr,
                             scaleValue, 1.0, INT_MAX, INT_MAX, numHeads, inputLayout, 0, nullptr, nullptr,
                             attentionOut, workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnIncreFlashAttentionV4GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclTensor* dequantScale1,
    const aclTensor* quantScale1, const aclTensor* dequantScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, const aclTensor* antiquantScale, const aclTensor* antiquantOffset,
    const aclTensor* blocktable, const aclTensor* kvPaddingSize, int64_t numHeads, double scaleValue,
    char* inputLayout, int64_t numKeyValueHeads, int64_t blockSize, int64_t innerPrecise,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)blockSize;     // only shapes the paged cache, refused above when a blocktable is given
  (void)innerPrecise;  // precision hint of the device kernel; the engine computes as documented
  return npusim::aclnn::build(
      query, key, value, pseShift, attenMask, actualSeqLengths,
      {dequantScale1, quantScale1, dequantScale2, quantScale2, quantOffset2, antiquantScale, antiquantOffset},
      blocktable, kvPaddingSize, numHeads, scaleValue, inputLayout, numKeyValueHeads, attentionOut,
      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnIncreFlashAttentionV4(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, const aclrtStream stream) {
  return npusim::aclnn::runExecutor("aclnnIncreFlashAttentionV4", workspace, workspaceSize, executor, stream);
}
