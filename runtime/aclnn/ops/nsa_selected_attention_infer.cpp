// aclnnNsaSelectedAttentionInfer (ops-transformer attention/nsa_selected_attention_infer/docs/
// aclnnNsaSelectedAttentionInfer.md): the selected attention of aclnnNsaSelectedAttention at
// inference, over a paged KV cache: key [blockNum, P, N2 * 192] or [blockNum, P, N2, 192], value
// likewise with D 128, key position p of batch b at page blockTable[b, p / P], row p % P.
// query BSND [B, S1, N1, 192] (the default), BSH [B, S1, N1 * 192] or TND [T, N1, 192] (batches
// packed, actualQSeqLenOptional their query counts, as the kernel reads it); topkIndices
// [B, S1, N2, count] (BSND/BSH) or [T, N2, count]; actualKvSeqLenOptional the keys of each batch.
// The S1 <= 4 queries of a batch are its last tokens: query i sees the keys up to kvLen - S1 + i
// (the kernel's maskedLen hides the later ones). No softmax statistics; the mask and sparseMode
// are reserved by the doc and not read. The doc's selectBlockCount * selectBlockSize
// <= max(actualKvSeqLen) is not enforced: the public example selects one block of 64 over 48 keys
// (keys past a sequence are never attended). Only the paged cache exists (the doc), so
// blockTableOptional is required. Numerics and cost as aclnnNsaSelectedAttention.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_nsa_selected_attention_infer.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/nsa_selected_attention.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnNsaSelectedAttentionInfer",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K_sel^T) V_sel over the topk blocks of a paged cache"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kDqk = 192, kDv = 128;  // the doc's head dimensions

int32_t build(const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* topk,
              const aclTensor* blockTable, const aclIntArray* seqQ, const aclIntArray* seqKv,
              const char* layoutIn, int64_t numHeads, int64_t numKvHeads, int64_t blockSize,
              int64_t blockCount, int64_t pageBlockSize, double scale, const aclTensor* output,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNsaSelectedAttentionInferGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"query", query},
                                  {"key", key},
                                  {"value", value},
                                  {"topkIndices", topk},
                                  {"blockTableOptional", blockTable},
                                  {"actualKvSeqLenOptional", seqKv},
                                  {"output", output}});
  if (st != kSuccess) return st;
  const std::string layout = layoutIn != nullptr ? layoutIn : "BSND";
  if (layout != "BSND" && layout != "BSH" && layout != "TND")
    return fail(api, kErrParamInvalid,
                fmt::format("layoutOptional must be BSND, BSH or TND, got {}", layout));
  if ((st = nsaCheckPacked(api, kInfo, {{"query", query}, {"key", key}, {"value", value}, {"output", output}},
                           0, {{"topkIndices", topk}, {"blockTableOptional", blockTable}})) != kSuccess)
    return st;
  const int64_t G = numKvHeads > 0 ? numHeads / numKvHeads : 0;
  if (numHeads <= 0 || numKvHeads <= 0 || numHeads % numKvHeads != 0 || G > 16 || numKvHeads > 256 ||
      blockSize <= 0 || blockSize % 16 != 0 || blockSize > 128 || blockCount < 1 ||
      (pageBlockSize != 64 && pageBlockSize != 128)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("numHeads {} / numKeyValueHeads {} (a group of at most 16, at most 256 key heads), "
                    "selectBlockSize {} (a multiple of 16 up to 128), selectBlockCount {} or pageBlockSize "
                    "{} (64 or 128) outside the doc's limits",
                    numHeads, numKvHeads, blockSize, blockCount, pageBlockSize));
  }
  NsaForwardProblem p;
  const int64_t B = blockTable->desc.rank() == 2 ? blockTable->desc.shape[0] : -1;
  if (B < 1 || B > 3072 || static_cast<int64_t>(seqKv->values.size()) != B) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("blockTableOptional {} must be [B <= 3072, pages] with one actualKvSeqLen per batch ({})",
                    blockTable->desc.brief(), seqKv->values.size()));
  }
  // Keys and values: pages [blockNum, P, N2, D] or [blockNum, P, N2 * D].
  if (!nsaPaddedRows(key->desc, numKvHeads, kDqk, &p.k) ||
      !nsaPaddedRows(value->desc, numKvHeads, kDv, &p.v) || key->desc.shape[1] != pageBlockSize ||
      value->desc.shape[0] != key->desc.shape[0] || value->desc.shape[1] != pageBlockSize) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("key {} / value {} must be pages [blockNum, pageBlockSize {}, N2 {} (* ) D] with D 192 "
                    "and 128",
                    key->desc.brief(), value->desc.brief(), pageBlockSize, numKvHeads));
  }
  std::vector<int64_t> outShape = query->desc.shape;
  std::vector<int64_t> topkShape;
  if (layout == "TND") {
    const auto& qs = query->desc.shape;
    if (qs.size() != 3 || qs[1] != numHeads || qs[2] != kDqk) {
      return fail(api, kErrParamInvalid,
                  fmt::format("query {} must be [T, numHeads {}, 192]", shapeString(qs), numHeads));
    }
    if (seqQ == nullptr) return fail(api, kErrParamNullptr, "actualQSeqLenOptional is required for TND");
    // Per-batch query counts, packed in order (the kernel sums them for each batch's first row).
    std::vector<int64_t> qFirst;
    int64_t rows = 0;
    for (int64_t len : seqQ->values) {
      if (len < 0) return fail(api, kErrParamInvalid, "actualQSeqLenOptional entries must not be negative");
      qFirst.push_back(rows);
      rows += len;
    }
    if (static_cast<int64_t>(seqQ->values.size()) != B || rows != qs[0]) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("actualQSeqLenOptional must give each of the {} batches its query count, summing to "
                      "query's T {}",
                      B, qs[0]));
    }
    p.qLen = seqQ->values;
    p.q = nsaPackedRows(query->desc, qFirst);
    p.out = nsaPackedRows(output->desc, qFirst);
    outShape[2] = kDv;
    topkShape = {qs[0], numKvHeads, blockCount};
    p.sel.topk = nsaPackedRows(topk->desc, qFirst);
  } else {
    const auto& qs = query->desc.shape;
    if (!nsaPaddedRows(query->desc, numHeads, kDqk, &p.q) || qs[0] != B ||
        !nsaPaddedRows(output->desc, numHeads, kDv, &p.out)) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("query {} / output {} must be [B {}, S, numHeads {}, 192 / 128] (BSND) or [B, S, "
                      "numHeads * 192 / 128] (BSH)",
                      shapeString(qs), shapeString(output->desc.shape), B, numHeads));
    }
    outShape.back() = layout == "BSND" ? kDv : numHeads * kDv;
    p.qLen.assign(static_cast<size_t>(B), qs[1]);
    if (seqQ != nullptr) {
      if (static_cast<int64_t>(seqQ->values.size()) != B)
        return fail(api, kErrParamInvalid, "actualQSeqLenOptional must have one entry per batch");
      for (int64_t b = 0; b < B; ++b) {
        const int64_t len = seqQ->values[static_cast<size_t>(b)];
        if (len < 0 || len > qs[1])
          return fail(api, kErrParamInvalid, "actualQSeqLenOptional exceeds query's S");
        p.qLen[static_cast<size_t>(b)] = len;
      }
    }
    topkShape = {B, qs[1], numKvHeads, blockCount};
    const auto& ts = topk->desc.strides;
    if (topk->desc.rank() == 4) p.sel.topk = NsaRows{ts[0], ts[1], ts[2], ts[3], {}};
  }
  if (output->desc.shape != outShape || topk->desc.shape != topkShape) {
    return fail(api, kErrParamInvalid,
                fmt::format("output {} must be {} and topkIndices {} {}", shapeString(output->desc.shape),
                            shapeString(outShape), shapeString(topk->desc.shape), shapeString(topkShape)));
  }
  for (int64_t b = 0; b < B; ++b) {
    const int64_t kv = seqKv->values[static_cast<size_t>(b)], q = p.qLen[static_cast<size_t>(b)];
    if (kv < 0 || kv > blockTable->desc.shape[1] * pageBlockSize || q > 4 || q > kv) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("batch {}: {} keys (at most the {} pages of {} in blockTableOptional) and {} queries "
                      "(at most 4 and at most the keys)",
                      b, kv, blockTable->desc.shape[1], pageBlockSize, q));
    }
  }
  p.heads = numHeads;
  p.kvHeads = numKvHeads;
  p.dqk = kDqk;
  p.dv = kDv;
  p.sel.kvLen = seqKv->values;
  // Several queries of a batch are its last tokens: query i sees the keys up to kvLen - S1 + i (the
  // kernel's maskedLen = S1 - 1 - i keys hidden at the end).
  p.sel.causal = true;
  for (int64_t b = 0; b < B; ++b)
    p.sel.causalShift.push_back(seqKv->values[static_cast<size_t>(b)] - p.qLen[static_cast<size_t>(b)]);
  p.sel.blockSize = blockSize;
  p.sel.blockCount = blockCount;
  p.pageBlockSize = pageBlockSize;
  p.scale = scale;
  auto inst = makeNsaForward(p);
  inst->name = "aclnnNsaSelectedAttentionInfer";
  addInput(*inst, "query", query);
  addInput(*inst, "key", key);
  addInput(*inst, "value", value);
  addInput(*inst, "topkIndices", topk);
  addInput(*inst, "blockTable", blockTable);
  addOutput(*inst, "output", output);
  inst->attrs = fmt::format(
      "layout={}, scale={:.6g}, numHeads={}, numKeyValueHeads={}, selectBlockSize={}, "
      "selectBlockCount={}, pageBlockSize={}",
      layout, scale, numHeads, numKvHeads, blockSize, blockCount, pageBlockSize);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnNsaSelectedAttentionInferGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* topkIndices,
    const aclTensor* attenMaskOptional, const aclTensor* blockTableOptional,
    const aclIntArray* actualQSeqLenOptional, const aclIntArray* actualKvSeqLenOptional, char* layoutOptional,
    int64_t numHeads, int64_t numKeyValueHeads, int64_t selectBlockSize, int64_t selectBlockCount,
    int64_t pageBlockSize, double scaleValue, int64_t sparseMode, aclTensor* output, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  (void)attenMaskOptional;  // reserved by the doc ("预留参数，暂未使用")
  (void)sparseMode;         // likewise
  return npusim::aclnn::build(query, key, value, topkIndices, blockTableOptional, actualQSeqLenOptional,
                              actualKvSeqLenOptional, layoutOptional, numHeads, numKeyValueHeads,
                              selectBlockSize, selectBlockCount, pageBlockSize, scaleValue, output,
                              workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaSelectedAttentionInfer)
