// aclnnFlashAttentionVarLenScoreV4 (ops-transformer attention/flash_attention_score/docs/
// aclnnFlashAttentionVarLenScoreV4.md): FlashAttentionScore for the TND layout, whose batch is
// a packed run of sequences delimited by actualSeqQLen / actualSeqKvLen (cumulative ends). One
// sequence (both arrays of one entry equal to T) is simulated: the TND tensors are viewed as
// BSND with B = 1 and the softmax statistics ([T, N, 8] for softmaxOutLayout "same_as_input",
// [N, T, 8] for "") as [1, N, T, 8], then the attention engine runs as for FlashAttentionScore.
// Several packed sequences are refused with 161002.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/flash_attention.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnFlashAttentionVarLenScoreV4",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K^T + mask) V (TND, one sequence)"};
const OpRegistrar kRegistrar(kInfo);

const FlashAttentionApi kApi{"aclnnFlashAttentionVarLenScoreV4GetWorkspaceSize",
                             "aclnnFlashAttentionVarLenScoreV4", "attentionOutOut", true};

// [T, N, D] viewed as [1, T, N, D] (BSND with one batch).
aclTensor asBsnd(const aclTensor& t) {
  aclTensor v{t.desc};
  v.desc.shape.insert(v.desc.shape.begin(), 1);
  v.desc.strides.insert(v.desc.strides.begin(), t.desc.shape[0] * t.desc.strides[0]);
  return v;
}

// Statistics [T, N, 8] (tnd) or [N, T, 8] viewed as [1, N, T, 8].
aclTensor asStats(const aclTensor& t, bool tnd) {
  aclTensor v{t.desc};
  const auto& s = t.desc.shape;
  const auto& st = t.desc.strides;
  if (tnd) {
    v.desc.shape = {1, s[1], s[0], s[2]};
    v.desc.strides = {s[0] * st[0], st[1], st[0], st[2]};
  } else {
    v.desc.shape = {1, s[0], s[1], s[2]};
    v.desc.strides = {s[0] * st[0], st[0], st[1], st[2]};
  }
  return v;
}

int32_t build(const aclTensor* query, const aclTensor* key, const aclTensor* value,
              const aclTensor* realShift, const aclTensor* dropMask, const aclTensor* paddingMask,
              const aclTensor* attenMask, const aclIntArray* prefix, const aclIntArray* seqQ,
              const aclIntArray* seqKv, double scaleValue, double keepProb, int64_t preTokens,
              int64_t nextTokens, int64_t headNum, const char* inputLayout, int64_t sparseMode,
              const char* softmaxOutLayout, const aclTensor* softmaxMax, const aclTensor* softmaxSum,
              const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = kApi.api;
  int32_t st = checkNotNull(api, {{"query", query},
                                  {"key", key},
                                  {"value", value},
                                  {"inputLayout", inputLayout},
                                  {"softmaxOutLayout", softmaxOutLayout},
                                  {"actualSeqQLenOptional", seqQ},
                                  {"actualSeqKvLenOptional", seqKv},
                                  {"softmaxMaxOut", softmaxMax},
                                  {"softmaxSumOut", softmaxSum},
                                  {"attentionOutOut", attentionOut}});
  if (st != kSuccess) return st;
  if (std::string(inputLayout) != "TND") {
    return fail(api, kErrParamInvalid, fmt::format("inputLayout must be TND, but is {}", inputLayout));
  }
  const std::string statLayout(softmaxOutLayout);
  if (!statLayout.empty() && statLayout != "same_as_input") {
    return fail(api, kErrParamInvalid,
                fmt::format("softmaxOutLayout must be \"same_as_input\" or \"\", but is \"{}\"", statLayout));
  }
  for (const aclTensor* t : {query, key, value, attentionOut, softmaxMax, softmaxSum}) {
    if (t->desc.rank() != 3) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("TND tensors and the statistics must be 3-dimensional, got {}", t->desc.brief()));
    }
  }
  const int64_t T1 = query->desc.shape[0], T2 = key->desc.shape[0];
  if (seqQ->values != std::vector<int64_t>{T1} || seqKv->values != std::vector<int64_t>{T2}) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("only one sequence per call is simulated: actualSeqQLen and actualSeqKvLen must be [{}] "
                    "and [{}] (the tensors' T), but have {} and {} entries",
                    T1, T2, seqQ->values.size(), seqKv->values.size()));
  }
  const aclTensor q = asBsnd(*query), k = asBsnd(*key), v = asBsnd(*value), o = asBsnd(*attentionOut);
  const bool tnd = statLayout == "same_as_input";
  const aclTensor mx = asStats(*softmaxMax, tnd), sm = asStats(*softmaxSum, tnd);
  return buildFlashAttention(kApi, &q, &k, &v, realShift, dropMask, paddingMask, attenMask, prefix,
                             scaleValue, keepProb, preTokens, nextTokens, headNum, "BSND", sparseMode, &mx,
                             &sm, &o, workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnFlashAttentionVarLenScoreV4GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* prefixOptional,
    const aclIntArray* actualSeqQLenOptional, const aclIntArray* actualSeqKvLenOptional, double scaleValue,
    double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout,
    int64_t innerPrecise, int64_t sparseMode, char* softmaxOutLayout, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)innerPrecise;   // precision hint of the device kernel
  (void)softmaxOutOut;  // reserved output, not written by the device either
  return npusim::aclnn::build(query, key, value, realShiftOptional, dropMaskOptional, paddingMaskOptional,
                              attenMaskOptional, prefixOptional, actualSeqQLenOptional,
                              actualSeqKvLenOptional, scaleValue, keepProb, preTokens, nextTokens, headNum,
                              inputLayout, sparseMode, softmaxOutLayout, softmaxMaxOut, softmaxSumOut,
                              attentionOutOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionVarLenScoreV4)
