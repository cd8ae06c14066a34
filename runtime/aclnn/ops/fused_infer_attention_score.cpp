// aclnnFusedInferAttentionScoreV4 (ops-transformer attention/fused_infer_attention_score/docs/
// aclnnFusedInferAttentionScoreV4.md): prompt (S1 > 1) or incremental (S1 = 1) attention over a
// KV cache, attentionOut = softmax(scaleValue * Q K^T, masked) V on the attention engine
// (cache_attention.h): layouts BSH/BSND/BNSD, numKeyValueHeads dividing numHeads, an optional
// bool/int8/uint8 mask, sparse modes 0-3 (0 without a mask ignores pre/nextTokens). Not
// simulated (161002 with the reason): softmaxLse (softmaxLseFlag), actual lengths shorter than
// the tensors, lists of per-batch tensors, pse, every (anti)quantisation tensor and mode,
// the paged cache, padding sizes, shared prefixes, the rope split of query/key and learnable
// sinks.
#include <fmt/format.h>

#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/cache_attention.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnFusedInferAttentionScoreV4",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K^T + mask) V (prompt or decode over a KV cache)"};
const OpRegistrar kRegistrar(kInfo);

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShiftOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* actualSeqLengthsOptional, const aclIntArray* actualSeqLengthsKvOptional,
    const aclTensor* deqScale1Optional, const aclTensor* quantScale1Optional,
    const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, const aclTensor* queryRopeOptional,
    const aclTensor* keyRopeOptional, const aclTensor* keyRopeAntiquantScaleOptional,
    const aclTensor* dequantScaleQueryOptional, const aclTensor* learnableSinkOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    int64_t keyAntiquantMode, int64_t valueAntiquantMode, int64_t queryQuantMode,
    const aclTensor* attentionOut, const aclTensor* softmaxLse, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  static const FlashAttentionApi api{"aclnnFusedInferAttentionScoreV4GetWorkspaceSize",
                                     "aclnnFusedInferAttentionScoreV4", "attentionOut", false, true};
  (void)innerPrecise;  // precision hint of the device kernel; the engine computes as documented
  (void)blockSize;     // only shapes the paged cache, refused when a block table is given
  (void)softmaxLse;    // written only with softmaxLseFlag, refused below
  if (softmaxLseFlag)
    return fail(api.api, kErrParamInvalid, "softmaxLse output (softmaxLseFlag) is not simulated");
  if (antiquantMode != 0 || keyAntiquantMode != 0 || valueAntiquantMode != 0 || queryQuantMode != 0) {
    return fail(api.api, kErrParamInvalid,
                fmt::format("quantisation modes are not simulated (antiquantMode {}, keyAntiquantMode {}, "
                            "valueAntiquantMode {}, queryQuantMode {}: pass 0)",
                            antiquantMode, keyAntiquantMode, valueAntiquantMode, queryQuantMode));
  }
  const CacheAttentionArgs c{query,
                             key,
                             value,
                             attenMaskOptional,
                             actualSeqLengthsOptional,
                             actualSeqLengthsKvOptional,
                             numHeads,
                             scaleValue,
                             preTokens,
                             nextTokens,
                             sparseMode,
                             inputLayout,
                             numKeyValueHeads,
                             attentionOut};
  return buildCacheAttention(api, c,
                             {{"pseShift", pseShiftOptional},
                              {"deqScale1", deqScale1Optional},
                              {"quantScale1", quantScale1Optional},
                              {"deqScale2", deqScale2Optional},
                              {"quantScale2", quantScale2Optional},
                              {"quantOffset2", quantOffset2Optional},
                              {"antiquantScale", antiquantScaleOptional},
                              {"antiquantOffset", antiquantOffsetOptional},
                              {"blockTable (paged cache)", blockTableOptional},
                              {"queryPaddingSize", queryPaddingSizeOptional},
                              {"kvPaddingSize", kvPaddingSizeOptional},
                              {"keyAntiquantScale", keyAntiquantScaleOptional},
                              {"keyAntiquantOffset", keyAntiquantOffsetOptional},
                              {"valueAntiquantScale", valueAntiquantScaleOptional},
                              {"valueAntiquantOffset", valueAntiquantOffsetOptional},
                              {"keySharedPrefix", keySharedPrefixOptional},
                              {"valueSharedPrefix", valueSharedPrefixOptional},
                              {"actualSharedPrefixLen", actualSharedPrefixLenOptional},
                              {"queryRope", queryRopeOptional},
                              {"keyRope", keyRopeOptional},
                              {"keyRopeAntiquantScale", keyRopeAntiquantScaleOptional},
                              {"dequantScaleQuery", dequantScaleQueryOptional},
                              {"learnableSink", learnableSinkOptional}},
                             workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FusedInferAttentionScoreV4)
