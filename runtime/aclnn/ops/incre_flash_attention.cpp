// aclnnIncreFlashAttentionV4 (ops-transformer attention/incre_flash_attention/docs/
// aclnnIncreFlashAttentionV4.md): the new query tokens attend to the KV cache,
// attentionOut = softmax(scaleValue * Q K^T, masked) V on the attention engine
// (cache_attention.h), layouts BSH/BSND/BNSD, numKeyValueHeads dividing numHeads, an optional
// bool/int8/uint8 mask [B, 1, 1, S2] (1 = masked). Not simulated (161002 with the reason):
// lists of per-batch tensors, actual lengths shorter than the cache, pseShift, the
// (anti)quantisation tensors, the paged cache (blocktable) and kvPaddingSize.
#include <climits>

#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "runtime/aclnn/ops/cache_attention.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnIncreFlashAttentionV4",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K^T + mask) V (decode over a KV cache)"};
const OpRegistrar kRegistrar(kInfo);

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
  using namespace npusim::aclnn;
  (void)blockSize;     // only shapes the paged cache, refused when a blocktable is given
  (void)innerPrecise;  // precision hint of the device kernel; the engine computes as documented
  static const FlashAttentionApi api{"aclnnIncreFlashAttentionV4GetWorkspaceSize",
                                     "aclnnIncreFlashAttentionV4", "attentionOut", false, true};
  // actualSeqLengths of IncreFlashAttention are the cache's lengths.
  const CacheAttentionArgs c{
      query,      key,     value,   attenMask, nullptr,     actualSeqLengths, numHeads,
      scaleValue, INT_MAX, INT_MAX, 0,         inputLayout, numKeyValueHeads, attentionOut};
  return buildCacheAttention(api, c,
                             {{"pseShift", pseShift},
                              {"dequantScale1", dequantScale1},
                              {"quantScale1", quantScale1},
                              {"dequantScale2", dequantScale2},
                              {"quantScale2", quantScale2},
                              {"quantOffset2", quantOffset2},
                              {"antiquantScale", antiquantScale},
                              {"antiquantOffset", antiquantOffset},
                              {"blocktable (paged cache)", blocktable},
                              {"kvPaddingSize", kvPaddingSize}},
                             workspaceSize, executor);
}

extern "C" aclnnStatus aclnnIncreFlashAttentionV4(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, const aclrtStream stream) {
  return npusim::aclnn::runExecutor("aclnnIncreFlashAttentionV4", workspace, workspaceSize, executor, stream);
}
