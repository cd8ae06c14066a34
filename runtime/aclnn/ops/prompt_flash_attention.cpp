// aclnnPromptFlashAttentionV3 (ops-transformer attention/prompt_flash_attention/docs/
// aclnnPromptFlashAttentionV3.md): attentionOut = softmax(scaleValue * Q K^T, masked) V on the
// attention engine (flash_attention.h), layouts BSH/BSND/BNSD, numKeyValueHeads dividing
// numHeads, sparse modes 0-3. Mode 0 without a mask ignores preTokens/nextTokens (the doc: they
// become INT_MAX). Not simulated (161002 with the reason): pseShift, actual sequence lengths,
// the quantisation parameters, TND, and sparse modes 4-8.
#include <fmt/format.h>

#include <climits>
#include <string>

#include "aclnnop/aclnn_prompt_flash_attention_v3.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/flash_attention.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnPromptFlashAttentionV3",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K^T + mask) V (prompt)"};
const OpRegistrar kRegistrar(kInfo);

const FlashAttentionApi kApi{"aclnnPromptFlashAttentionV3GetWorkspaceSize", "aclnnPromptFlashAttentionV3",
                             "attentionOut", false};

int32_t build(const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
              const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
              const aclIntArray* actualSeqLengthsKv, const aclTensor* deqScale1, const aclTensor* quantScale1,
              const aclTensor* deqScale2, const aclTensor* quantScale2, const aclTensor* quantOffset2,
              int64_t numHeads, double scaleValue, int64_t preTokens, int64_t nextTokens,
              const char* inputLayout, int64_t numKeyValueHeads, int64_t sparseMode,
              const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = kApi.api;
  if (actualSeqLengths != nullptr || actualSeqLengthsKv != nullptr) {
    return fail(api, kErrParamInvalid, "actualSeqLengths / actualSeqLengthsKv are not simulated");
  }
  if (deqScale1 != nullptr || quantScale1 != nullptr || deqScale2 != nullptr || quantScale2 != nullptr ||
      quantOffset2 != nullptr) {
    return fail(api, kErrParamInvalid,
                "the quantisation parameters (deqScale1/2, quantScale1/2, quantOffset2) "
                "are not simulated");
  }
  if (inputLayout != nullptr && std::string(inputLayout) == "SBH") {
    return fail(api, kErrParamInvalid,
                "inputLayout SBH is not one of PromptFlashAttention's (BSH, BSND, BNSD)");
  }
  if (query != nullptr && query->desc.dtype != ACL_FLOAT16 && query->desc.dtype != ACL_BF16) {
    return fail(api, kErrParamInvalid, "query must be fp16 or bf16 (int8 inputs are not simulated)");
  }
  const int32_t st = checkKeyValueHeads(api, numHeads, numKeyValueHeads, key, inputLayout);
  if (st != kSuccess) return st;
  if (sparseMode == 0 && attenMask == nullptr) preTokens = nextTokens = INT_MAX;
  return buildFlashAttention(kApi, query, key, value, pseShift, nullptr, nullptr, attenMask, nullptr,
                             scaleValue, 1.0, preTokens, nextTokens, numHeads, inputLayout, sparseMode,
                             nullptr, nullptr, attentionOut, workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnPromptFlashAttentionV3GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclIntArray* actualSeqLengthsKv,
    const aclTensor* deqScale1, const aclTensor* quantScale1, const aclTensor* deqScale2,
    const aclTensor* quantScale2, const aclTensor* quantOffset2, int64_t numHeads, double scaleValue,
    int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads, int64_t sparseMode,
    int64_t innerPrecise, const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)innerPrecise;  // precision hint of the device kernel; the engine computes as documented
  return npusim::aclnn::build(query, key, value, pseShift, attenMask, actualSeqLengths, actualSeqLengthsKv,
                              deqScale1, quantScale1, deqScale2, quantScale2, quantOffset2, numHeads,
                              scaleValue, preTokens, nextTokens, inputLayout, numKeyValueHeads, sparseMode,
                              attentionOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnPromptFlashAttentionV3(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, const aclrtStream stream) {
  return npusim::aclnn::runExecutor("aclnnPromptFlashAttentionV3", workspace, workspaceSize, executor,
                                    stream);
}
