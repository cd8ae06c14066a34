// aclnnNsaCompressAttention (ops-transformer attention/nsa_compress_attention/docs/
// aclnnNsaCompressAttention.md), the compressed branch of native sparse attention with the
// selection of the blocks for the selected branch. Per query row i of batch b (TND, cumulative
// ends actualSeqQLen / actualCmpSeqKvLen / actualSelSeqKvLen), head n, key head g = n / G:
//   P = softmax(scale * q K_cmp^T, masked),  attentionOut = P V_cmp,
// softmaxMax / softmaxSum [T1, N1, 8] (the row's max and sum of exponentials, 8 times). The
// importance of select block j (M = selectBlockSize / compressStride compressed keys per select
// block, L = compressBlockSize / compressStride compressed keys overlapping a window) sums P
// over the G heads of the key head and over m < M, l < L:
//   score[j] = sum_h sum_m sum_l P_h[(j + 1) * M - m - l]   (indices outside 0 .. CmpSkv - 1 dropped),
// the public kernel's indexing (the doc writes j * M: the kernel's block j is the doc's j + 1; see
// docs/operators/nsa.md). A topkMask entry of 1 forces its block to the top (the kernel selects
// the largest float for it); topkIndices[i, g, :] are the selectBlockCount best blocks, best first,
// ties to the lower index. The attention mask (bool/uint8 [maxS1, maxCmpSkv], 1 = hidden, indexed
// by positions inside the sequence) applies in sparse modes 0 and 1; a row it hides whole gives 0.
// fp16/bf16; fp32 products, softmax and scores; P rounded to the input type before P V.
// Cost: one cube tile per (batch, key head, up to 128 / G query rows): its QK^T and PV MACs, or
// its vector passes (softmax, the importance sums, the head reduction, the top-k) if longer; the
// first tile of a key head reads its compressed keys and values, the others find them in L2.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_nsa_compress_attention.h"
#include "aclnnop/aclnn_nsa_compress_attention_infer.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/nsa_selected_attention.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnNsaCompressAttention",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K_cmp^T, mask) V_cmp; topk of the select blocks' summed P"};
const OpRegistrar kRegistrar(kInfo);

class NsaCompressAttentionInstance : public OpInstanceBase<NsaCompressAttentionInstance> {
 public:
  int64_t heads = 0, kvHeads = 0, dqk = 0, dv = 0, M = 0, L = 0, count = 0;
  std::vector<int64_t> qLen, cmpLen, selLen;
  NsaRows q, k, v, out, stats, topk;
  double scale = 1.0;
  int maskInput = -1, topkMaskInput = -1;  // indices among the inputs, or -1
  int tableInput = -1;                     // the block table of a paged cache, or -1
  int64_t pageBlockSize = 0;               // > 0: key/value rows (page, c % P), page = blockTable[b, c / P]
  bool withStats = true;                   // softmaxMax / softmaxSum come first among the outputs
  bool forceEnds = false;                  // the first and the last two select blocks always chosen
  std::vector<int64_t> hideLastRows;       // per batch: its first rows do not see its last compressed key

  // Element offset of compressed key c of batch b, key head g in a key or value view.
  int64_t keyAt(const NsaRows& r, const HostTensor* table, int64_t b, int64_t c, int64_t g) const {
    if (table == nullptr) return r.at(b, c, g);
    int32_t page = 0;
    std::memcpy(&page, table->data + (b * table->strides[0] + c / pageBlockSize * table->strides[1]) * 4, 4);
    return page * r.sb + (c % pageBlockSize) * r.ss + g * r.sn;
  }

  rt::OpWork work() const override {
    rt::OpWork w;
    w.cube = true;
    const int64_t group = heads / kvHeads, rowsPerTile = std::max<int64_t>(1, kNsaTileRows / group);
    const auto es = static_cast<uint64_t>(inputs[0].elementSize());
    auto addr = [](const TensorDesc& d, int64_t elem) {
      return d.data + static_cast<uint64_t>((d.offset + elem) * static_cast<int64_t>(d.elementSize()));
    };
    for (size_t bi = 0; bi < qLen.size(); ++bi) {
      const auto b = static_cast<int64_t>(bi);
      const int64_t keys = cmpLen[bi], sel = std::max<int64_t>(1, selLen[bi]);
      // Vector passes per score: softmax (6), the importance sums ((M + L - 1) / M per score),
      // the head reduction and the mask (2), the top-k's sort (log2 of the select blocks).
      const double passes = 6 + static_cast<double>(M + L - 1) / static_cast<double>(M) + 2 +
                            std::ceil(std::log2(static_cast<double>(sel) + 1));
      for (int64_t g = 0; g < kvHeads; ++g) {
        for (int64_t i0 = 0; i0 < qLen[bi]; i0 += rowsPerTile) {
          const int64_t rows = std::min(rowsPerTile, qLen[bi] - i0);
          uint64_t read = static_cast<uint64_t>(rows * group * dqk) * es;
          if (i0 == 0) read += static_cast<uint64_t>(keys * (dqk + dv)) * es;
          const uint64_t write = static_cast<uint64_t>(rows * group) *
                                     (static_cast<uint64_t>(dv) * es + (withStats ? 2 * 8 * 4 : 0)) +
                                 static_cast<uint64_t>(rows * count) * 4;
          w.tiles.push_back(nsaAttentionTile(
              rows, group, keys, dqk, dv, 1.0, passes, addr(inputs[0], q.at(b, i0, g * group)), read,
              addr(outputs[withStats ? 2 : 0], out.at(b, i0, g * group)), write));
        }
      }
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& outs) const override {
    const size_t first = withStats ? 2 : 0;
    const HostTensor &Q = in[0], &K = in[1], &V = in[2], &O = outs[first], &I = outs[first + 1];
    const HostTensor* table = tableInput >= 0 ? &in[static_cast<size_t>(tableInput)] : nullptr;
    const HostTensor* mask = maskInput >= 0 ? &in[static_cast<size_t>(maskInput)] : nullptr;
    const HostTensor* topkMask = topkMaskInput >= 0 ? &in[static_cast<size_t>(topkMaskInput)] : nullptr;
    const aclDataType dt = Q.dtype;
    const auto es = static_cast<int64_t>(dtypeSize(dt));
    const int64_t group = heads / kvHeads, D = dqk, Dv = dv;
    auto byteAt = [](const HostTensor& t, int64_t r, int64_t c) {
      return t.data[(r * t.strides[0] + c * t.strides[1]) * static_cast<int64_t>(dtypeSize(t.dtype))] != 0;
    };
    for (size_t bi = 0; bi < qLen.size(); ++bi) {
      const auto b = static_cast<int64_t>(bi);
      const int64_t S1 = qLen[bi], S2 = cmpLen[bi], sel = selLen[bi];
      std::vector<float> kt(static_cast<size_t>(D * S2)), vm(static_cast<size_t>(S2 * Dv)),
          qm(static_cast<size_t>(group * D)), p(static_cast<size_t>(group * S2)),
          pr(static_cast<size_t>(group * S2)), o(static_cast<size_t>(group * Dv)),
          row(static_cast<size_t>(std::max(D, Dv))), score(static_cast<size_t>(sel));
      std::vector<int64_t> order(static_cast<size_t>(sel));
      for (int64_t g = 0; g < kvHeads; ++g) {
        for (int64_t c = 0; c < S2; ++c) {
          loadRow(dt, K.data + keyAt(k, table, b, c, g) * es, k.sd * es, D, row.data());
          for (int64_t d = 0; d < D; ++d) kt[static_cast<size_t>(d * S2 + c)] = row[static_cast<size_t>(d)];
          loadRow(dt, V.data + keyAt(v, table, b, c, g) * es, v.sd * es, Dv, vm.data() + c * Dv);
        }
        for (int64_t i = 0; i < S1; ++i) {
          for (int64_t h = 0; h < group; ++h)
            loadRow(dt, Q.data + q.at(b, i, g * group + h) * es, q.sd * es, D, qm.data() + h * D);
          if (S2 > 0) gemmF32(group, S2, D, qm.data(), D, kt.data(), S2, p.data(), S2);
          std::fill(score.begin(), score.end(), 0.0f);
          for (int64_t h = 0; h < group; ++h) {
            float* ph = p.data() + h * S2;
            float m = -std::numeric_limits<float>::infinity(), sum = 0;
            const bool hideLast = !hideLastRows.empty() && i < hideLastRows[bi];
            for (int64_t c = 0; c < S2; ++c) {
              ph[c] = (mask != nullptr && byteAt(*mask, i, c)) || (hideLast && c == S2 - 1)
                          ? -std::numeric_limits<float>::infinity()
                          : static_cast<float>(ph[c] * scale);
              m = std::max(m, ph[c]);
            }
            for (int64_t c = 0; c < S2; ++c) sum += ph[c] = std::isinf(m) ? 0.0f : std::exp(ph[c] - m);
            for (int64_t c = 0; c < S2; ++c) ph[c] = sum > 0 ? ph[c] / sum : 0.0f;
            const int64_t n = g * group + h;
            for (int which = 0; which < (withStats ? 2 : 0); ++which) {
              const float val = std::isinf(m) ? 0.0f : which == 0 ? m : sum;
              for (int64_t e = 0; e < 8; ++e)
                std::memcpy(outs[static_cast<size_t>(which)].data + (stats.at(b, i, n) + e * stats.sd) * 4,
                            &val, 4);
            }
            // Importance of select block j: P at (j + 1) M - m - l for m < M, l < L.
            for (int64_t j = 0; j < sel; ++j)
              for (int64_t mm = 0; mm < M; ++mm)
                for (int64_t l = 0; l < L; ++l) {
                  const int64_t c = (j + 1) * M - mm - l;
                  if (c >= 0 && c < S2) score[static_cast<size_t>(j)] += ph[c];
                }
            std::copy(ph, ph + S2, pr.data() + h * S2);
            if (dt != ACL_FLOAT) quantizeRow(dt, pr.data() + h * S2, S2);
          }
          std::fill(o.begin(), o.end(), 0.0f);
          if (S2 > 0) gemmF32(group, Dv, S2, pr.data(), S2, vm.data(), Dv, o.data(), Dv);
          for (int64_t h = 0; h < group; ++h)
            storeRow(O.dtype, O.data + out.at(b, i, g * group + h) * es, out.sd * es, Dv, o.data() + h * Dv);
          if (topkMask != nullptr)
            for (int64_t j = 0; j < sel; ++j)
              if (byteAt(*topkMask, i, j)) score[static_cast<size_t>(j)] = std::numeric_limits<float>::max();
          if (forceEnds)
            for (int64_t j : {int64_t{0}, sel - 2, sel - 1})
              if (j >= 0) score[static_cast<size_t>(j)] = std::numeric_limits<float>::max();
          std::iota(order.begin(), order.end(), 0);
          std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
            return score[static_cast<size_t>(x)] > score[static_cast<size_t>(y)];
          });
          for (int64_t c = 0; c < count; ++c) {
            const auto idx = static_cast<int32_t>(order[static_cast<size_t>(c)]);
            std::memcpy(I.data + (topk.at(b, i, g) + c * topk.sd) * 4, &idx, 4);
          }
        }
      }
    }
  }
};

int32_t checkMask(const char* api, const char* name, const aclTensor* mask, int64_t rows, int64_t cols) {
  if (mask == nullptr) return kSuccess;
  int32_t st = checkTensor(api, name, mask->desc);
  if (st != kSuccess) return st;
  const auto& s = mask->desc.shape;
  if ((mask->desc.dtype != ACL_BOOL && mask->desc.dtype != ACL_UINT8) || s.size() != 2 || s[0] < rows ||
      s[1] < cols) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} {} must be bool or uint8 [S, S] covering [{}, {}] (the longest sequences)",
                            name, mask->desc.brief(), rows, cols));
  }
  return kSuccess;
}

int32_t build(const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* mask,
              const aclTensor* topkMask, const aclIntArray* seqQ, const aclIntArray* seqCmp,
              const aclIntArray* seqSel, double scale, int64_t headNum, const char* layout,
              int64_t sparseMode, int64_t cmpBlock, int64_t cmpStride, int64_t selBlock, int64_t selCount,
              const aclTensor* softmaxMax, const aclTensor* softmaxSum, const aclTensor* attentionOut,
              const aclTensor* topkOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNsaCompressAttentionGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"query", query},
                                  {"key", key},
                                  {"value", value},
                                  {"actualSeqQLenOptional", seqQ},
                                  {"actualCmpSeqKvLenOptional", seqCmp},
                                  {"actualSelSeqKvLenOptional", seqSel},
                                  {"inputLayout", layout},
                                  {"softmaxMaxOut", softmaxMax},
                                  {"softmaxSumOut", softmaxSum},
                                  {"attentionOutOut", attentionOut},
                                  {"topkIndicesOut", topkOut}});
  if (st != kSuccess) return st;
  if ((st = nsaCheckPacked(
           api, kInfo,
           {{"query", query}, {"key", key}, {"value", value}, {"attentionOutOut", attentionOut}})) !=
      kSuccess)
    return st;
  if (std::string(layout) != "TND")
    return fail(api, kErrParamInvalid,
                fmt::format("inputLayout must be TND (the only one the doc supports), got {}", layout));
  if (sparseMode != 0 && sparseMode != 1)
    return fail(api, kErrParamInvalid, fmt::format("sparseMode must be 0 or 1, got {}", sparseMode));
  if (cmpBlock < 16 || cmpBlock > 128 || cmpBlock % 16 != 0 || cmpStride < 16 || cmpStride > 64 ||
      cmpStride % 16 != 0 || selBlock < 16 || selBlock > 128 || selBlock % 16 != 0 || cmpBlock < cmpStride ||
      selBlock < cmpBlock || selBlock % cmpStride != 0 || selCount < 1 || selCount > 32) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "compressBlockSize {} (16..128), compressStride {} (16..64), selectBlockSize {} (16..128), "
            "all multiples of 16 with stride <= block <= select block and the select block a multiple "
            "of the stride, selectBlockCount {} (1..32): outside the doc's limits",
            cmpBlock, cmpStride, selBlock, selCount));
  }
  const auto &qs = query->desc.shape, &ks = key->desc.shape, &vs = value->desc.shape;
  const int64_t N1 = qs[1], N2 = ks[1], G = N2 > 0 ? N1 / N2 : 0;
  if (N1 != headNum || N2 < 1 || N1 % N2 != 0 || G >= 128 || 128 % G != 0 || vs[1] != N2 || vs[0] != ks[0] ||
      ks[2] != qs[2] || vs[2] > ks[2] || attentionOut->desc.shape != std::vector<int64_t>{qs[0], N1, vs[2]}) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "query {}, key {}, value {}, attentionOut {} outside the doc's shapes: [T1, N1 = headNum {}, "
            "D], [T2, N2, D], [T2, N2, Dv <= D], [T1, N1, Dv], G = N1 / N2 dividing 128 and below it",
            shapeString(qs), shapeString(ks), shapeString(vs), shapeString(attentionOut->desc.shape),
            headNum));
  }
  auto inst = std::make_unique<NsaCompressAttentionInstance>();
  std::vector<int64_t> qFirst, kvFirst;
  if ((st = nsaPackedSequences(api, seqQ, seqCmp, qs[0], ks[0], &qFirst, &inst->qLen, &kvFirst,
                               &inst->cmpLen)) != kSuccess)
    return st;
  const int64_t M = selBlock / cmpStride;
  if (seqSel->values.size() != inst->qLen.size()) {
    return fail(api, kErrParamInvalid, "actualSelSeqKvLenOptional must have one entry per batch");
  }
  int64_t prev = 0, maxS1 = 0, maxCmp = 0, maxSel = 0;
  for (size_t b = 0; b < inst->qLen.size(); ++b) {
    const int64_t sel = seqSel->values[b] - prev, cmp = inst->cmpLen[b];
    prev = seqSel->values[b];
    if (cmp > 14000 || sel != (cmp + M - 1) / M || sel < selCount) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("batch {}: {} compressed keys (at most 14000) give CeilDiv({}, selectBlockSize / "
                      "compressStride = {}) = {} select blocks (actualSelSeqKvLen, cumulative, says {}), at "
                      "least selectBlockCount {}",
                      b, cmp, cmp, M, (cmp + M - 1) / M, sel, selCount));
    }
    inst->selLen.push_back(sel);
    maxS1 = std::max(maxS1, inst->qLen[b]);
    maxCmp = std::max(maxCmp, cmp);
    maxSel = std::max(maxSel, sel);
  }
  for (auto [name, t] : {std::pair{"softmaxMaxOut", softmaxMax}, {"softmaxSumOut", softmaxSum}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != ACL_FLOAT || t->desc.shape != std::vector<int64_t>{qs[0], N1, 8} ||
        t->desc.strides != softmaxMax->desc.strides)
      return fail(api, kErrParamInvalid,
                  fmt::format("{} {} must be fp32 [T1, N1, 8]", name, t->desc.brief()));
  }
  if ((st = checkTensor(api, "topkIndicesOut", topkOut->desc)) != kSuccess) return st;
  if (topkOut->desc.dtype != ACL_INT32 || topkOut->desc.shape != std::vector<int64_t>{qs[0], N2, selCount}) {
    return fail(api, kErrParamInvalid,
                fmt::format("topkIndicesOut {} must be int32 [T1, N2, selectBlockCount] = [{}, {}, {}]",
                            topkOut->desc.brief(), qs[0], N2, selCount));
  }
  if ((st = checkMask(api, "attenMaskOptional", mask, maxS1, maxCmp)) != kSuccess ||
      (st = checkMask(api, "topkMaskOptional", topkMask, maxS1, maxSel)) != kSuccess)
    return st;
  inst->heads = N1;
  inst->kvHeads = N2;
  inst->dqk = qs[2];
  inst->dv = vs[2];
  inst->M = M;
  inst->L = cmpBlock / cmpStride;
  inst->count = selCount;
  inst->q = nsaPackedRows(query->desc, qFirst);
  inst->k = nsaPackedRows(key->desc, kvFirst);
  inst->v = nsaPackedRows(value->desc, kvFirst);
  inst->out = nsaPackedRows(attentionOut->desc, qFirst);
  inst->stats = nsaPackedRows(softmaxMax->desc, qFirst);
  inst->topk = nsaPackedRows(topkOut->desc, qFirst);
  inst->scale = scale;
  inst->name = "aclnnNsaCompressAttention";
  addInput(*inst, "query", query);
  addInput(*inst, "key", key);
  addInput(*inst, "value", value);
  if (mask != nullptr) {
    inst->maskInput = static_cast<int>(inst->inputs.size());
    addInput(*inst, "attenMask", mask);
  }
  if (topkMask != nullptr) {
    inst->topkMaskInput = static_cast<int>(inst->inputs.size());
    addInput(*inst, "topkMask", topkMask);
  }
  addOutput(*inst, "softmaxMaxOut", softmaxMax);
  addOutput(*inst, "softmaxSumOut", softmaxSum);
  addOutput(*inst, "attentionOutOut", attentionOut);
  addOutput(*inst, "topkIndicesOut", topkOut);
  inst->attrs = fmt::format(
      "scale={:.6g}, headNum={}, sparseMode={}, compressBlockSize={}, compressStride={}, "
      "selectBlockSize={}, selectBlockCount={}",
      scale, headNum, sparseMode, cmpBlock, cmpStride, selBlock, selCount);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

const OpInfo kInferInfo{
    "aclnnNsaCompressAttentionInfer",
    ExecUnit::kCube,
    {ACL_FLOAT16, ACL_BF16},
    "1-4 queries per batch over a paged compressed cache: attention and the topk select blocks"};
const OpRegistrar kInferRegistrar(kInferInfo);

// The inference form over a paged compressed cache: key [blockNum, P, N2 * D] (or [blockNum, P,
// N2, D]), value likewise with Dv, compressed key c of batch b at page blockTable[b, c / P], row
// c % P; 1 to 4 queries per batch (actualQSeqLenOptional, per-batch counts; 1 without it), query
// TND [T, N1, D] or BSND [B, S, N1, D], output alike with Dv, topKOutput [T, N2, count] or
// [B, S, N2, count]; no statistics. Its kernel (op_kernel/nsa_compress_attention_infer.h:
// InitImportanceScoreParams, ImpScoreReduceSum) scores CeilDiv((CmpSkv - 1) d + l, l') select
// blocks and always chooses the first and the last two (their scores set to infinity: the
// paper's initial and local blocks).
int32_t buildInfer(const aclTensor* query, const aclTensor* key, const aclTensor* value,
                   const aclTensor* mask, const aclTensor* blockTable, const aclIntArray* seqQ,
                   const aclIntArray* seqCmp, const aclIntArray* seqSel, int64_t numHeads, int64_t numKvHeads,
                   int64_t selBlock, int64_t selCount, int64_t cmpBlock, int64_t cmpStride, double scale,
                   const char* layoutIn, int64_t pageBlockSize, const aclTensor* output,
                   const aclTensor* topkOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNsaCompressAttentionInferGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"query", query},
                                  {"key", key},
                                  {"value", value},
                                  {"blockTableOptional", blockTable},
                                  {"actualCmpKvSeqLenOptional", seqCmp},
                                  {"output", output},
                                  {"topKOutput", topkOut}});
  if (st != kSuccess) return st;
  const std::string layout = layoutIn != nullptr ? layoutIn : "BSND";
  if (layout != "TND" && layout != "BSND")
    return fail(api, kErrParamInvalid, fmt::format("layoutOptional must be TND or BSND, got {}", layout));
  if ((st = nsaCheckPacked(api, kInferInfo,
                           {{"query", query}, {"key", key}, {"value", value}, {"output", output}}, 0,
                           {{"blockTableOptional", blockTable}, {"topKOutput", topkOut}})) != kSuccess)
    return st;
  const bool stridesOk = cmpStride == 16 || cmpStride == 32 || cmpStride == 48 || cmpStride == 64;
  const int64_t G = numKvHeads > 0 ? numHeads / numKvHeads : 0;
  if (!stridesOk || cmpBlock < 16 || cmpBlock > 128 || cmpBlock % 16 != 0 || cmpBlock < cmpStride ||
      selBlock < 16 || selBlock > 128 || selBlock % 16 != 0 || selBlock < cmpBlock ||
      selBlock % cmpStride != 0 || selCount < 1 || numKvHeads < 1 || numHeads % numKvHeads != 0 || G > 128 ||
      128 % G != 0 || pageBlockSize < 16 || pageBlockSize > 128 || pageBlockSize % 16 != 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "compressBlockSize {}, compressBlockStride {}, selectBlockSize {}, selectBlockCount {}, "
            "numHeads {} / numKeyValueHeads {} (a group dividing 128) or pageBlockSize {} (a multiple "
            "of 16 up to 128) outside the doc's limits",
            cmpBlock, cmpStride, selBlock, selCount, numHeads, numKvHeads, pageBlockSize));
  }
  const int64_t B = blockTable->desc.rank() == 2 ? blockTable->desc.shape[0] : -1;
  if (B < 1 || B > 10000 || static_cast<int64_t>(seqCmp->values.size()) != B) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "blockTableOptional {} must be [B <= 10000, pages] with one actualCmpKvSeqLen per batch ({})",
            blockTable->desc.brief(), seqCmp->values.size()));
  }
  // Query rows per batch: 1, or actualQSeqLenOptional's counts (1 to 4, the kernel's tiling).
  std::vector<int64_t> qLen(static_cast<size_t>(B), 1);
  if (seqQ != nullptr) {
    if (static_cast<int64_t>(seqQ->values.size()) != B ||
        std::any_of(seqQ->values.begin(), seqQ->values.end(), [](int64_t v) { return v < 1 || v > 4; })) {
      return fail(api, kErrParamInvalid, "actualQSeqLenOptional must give each batch 1 to 4 queries");
    }
    qLen = seqQ->values;
  }
  const int64_t maxQ = *std::max_element(qLen.begin(), qLen.end());
  auto inst = std::make_unique<NsaCompressAttentionInstance>();
  const int64_t D = query->desc.shape.back(), Dv = output->desc.shape.back();
  if (!nsaPaddedRows(key->desc, numKvHeads, D, &inst->k) ||
      !nsaPaddedRows(value->desc, numKvHeads, Dv, &inst->v) || key->desc.shape[1] != pageBlockSize ||
      value->desc.shape[0] != key->desc.shape[0] || value->desc.shape[1] != pageBlockSize || D > 192 ||
      Dv > 128 || Dv > D) {
    return fail(
        api, kErrParamInvalid,
        fmt::format(
            "key {} / value {} must be pages [blockNum, pageBlockSize {}, numKeyValueHeads {} * D] with "
            "query's D {} <= 192 and output's Dv {} <= min(D, 128)",
            key->desc.brief(), value->desc.brief(), pageBlockSize, numKvHeads, D, Dv));
  }
  std::vector<int64_t> rowsFirst(static_cast<size_t>(B));
  std::exclusive_scan(qLen.begin(), qLen.end(), rowsFirst.begin(), int64_t{0});
  const int64_t rows = rowsFirst.back() + qLen.back();
  const auto& qs = query->desc.shape;
  std::vector<int64_t> outShape = qs, topkShape;
  outShape.back() = Dv;
  if (layout == "TND") {
    if (qs.size() != 3 || qs[0] != rows || qs[1] != numHeads)
      return fail(api, kErrParamInvalid,
                  fmt::format("query {} must be [T {}, numHeads {}, D]", shapeString(qs), rows, numHeads));
    inst->q = nsaPackedRows(query->desc, rowsFirst);
    inst->out = nsaPackedRows(output->desc, rowsFirst);
    inst->topk = nsaPackedRows(topkOut->desc, rowsFirst);
    topkShape = {rows, numKvHeads, selCount};
  } else {
    if (qs.size() != 4 || qs[0] != B || qs[1] != maxQ || qs[2] != numHeads || output->desc.rank() != 4)
      return fail(api, kErrParamInvalid,
                  fmt::format("query {} must be [B {}, S {} (the most queries of a batch), numHeads {}, D]",
                              shapeString(qs), B, maxQ, numHeads));
    nsaPaddedRows(query->desc, numHeads, D, &inst->q);
    nsaPaddedRows(output->desc, numHeads, Dv, &inst->out);
    const auto& ts = topkOut->desc.strides;
    if (topkOut->desc.rank() == 4) inst->topk = NsaRows{ts[0], ts[1], ts[2], ts[3], {}};
    topkShape = {B, maxQ, numKvHeads, selCount};
  }
  if (output->desc.shape != outShape || topkOut->desc.shape != topkShape) {
    return fail(api, kErrParamInvalid,
                fmt::format("output {} must be {} and topKOutput {} {}", shapeString(output->desc.shape),
                            shapeString(outShape), shapeString(topkOut->desc.shape), shapeString(topkShape)));
  }
  const int64_t M = selBlock / cmpStride;
  for (int64_t b = 0; b < B; ++b) {
    // The tokens the compressed keys cover, (cmp - 1) d + l, in select blocks (the doc's
    // actualSelKvSeqLenCeil; the kernel scores CeilDiv of it, and count may reach its floor).
    const int64_t cmp = seqCmp->values[static_cast<size_t>(b)], tokens = (cmp - 1) * cmpStride + cmpBlock;
    const int64_t sel = (tokens + selBlock - 1) / selBlock;
    if (cmp < 1 || cmp > 8192 || cmp > blockTable->desc.shape[1] * pageBlockSize ||
        tokens / selBlock < selCount || tokens / selBlock > 4096) {
      return fail(
          api, kErrParamInvalid,
          fmt::format(
              "batch {}: {} compressed keys (1 to 8192, within its {} pages of {}) cover {} tokens, {} "
              "whole select blocks: selectBlockCount {} must not exceed them (nor they 4096)",
              b, cmp, blockTable->desc.shape[1], pageBlockSize, tokens, tokens / selBlock, selCount));
    }
    inst->qLen.push_back(qLen[static_cast<size_t>(b)]);
    inst->cmpLen.push_back(cmp);
    inst->selLen.push_back(sel);
  }
  // Several queries: the mask (its presence; the kernel's attenMaskFlag) hides the last compressed
  // key from query i of S when the S - 1 - i later tokens reach past the tokens the compressed keys
  // cover, (S - 1 - i) > actualSelKvSeqLen - ((CmpSkv - 1) d + l) (the kernel's MaskOperation).
  if (maxQ > 1) {
    if (seqSel == nullptr || static_cast<int64_t>(seqSel->values.size()) != B)
      return fail(api, kErrParamNullptr,
                  "several queries per batch need actualSelKvSeqLenOptional, one per batch");
    for (int64_t b = 0; b < B; ++b) {
      const int64_t sel = seqSel->values[static_cast<size_t>(b)], cmp = inst->cmpLen[static_cast<size_t>(b)];
      if (sel < cmpBlock || (sel - cmpBlock) / cmpStride + 1 != cmp || qLen[static_cast<size_t>(b)] > sel) {
        return fail(
            api, kErrParamInvalid,
            fmt::format("batch {}: actualCmpKvSeqLen {} must be (actualSelKvSeqLen {} - compressBlockSize) / "
                        "compressBlockStride + 1, and its queries at most its tokens",
                        b, cmp, sel));
      }
      const int64_t tail = sel - ((cmp - 1) * cmpStride + cmpBlock);
      inst->hideLastRows.push_back(
          mask != nullptr ? std::max<int64_t>(0, qLen[static_cast<size_t>(b)] - 1 - tail) : 0);
    }
  }
  inst->heads = numHeads;
  inst->kvHeads = numKvHeads;
  inst->dqk = D;
  inst->dv = Dv;
  inst->M = M;
  inst->L = cmpBlock / cmpStride;
  inst->count = selCount;
  inst->scale = scale;
  inst->pageBlockSize = pageBlockSize;
  inst->withStats = false;
  inst->forceEnds = true;
  inst->name = "aclnnNsaCompressAttentionInfer";
  addInput(*inst, "query", query);
  addInput(*inst, "key", key);
  addInput(*inst, "value", value);
  inst->tableInput = static_cast<int>(inst->inputs.size());
  addInput(*inst, "blockTable", blockTable);
  addOutput(*inst, "output", output);
  addOutput(*inst, "topKOutput", topkOut);
  inst->attrs = fmt::format(
      "layout={}, scale={:.6g}, numHeads={}, numKeyValueHeads={}, compressBlockSize={}, "
      "compressBlockStride={}, selectBlockSize={}, selectBlockCount={}, pageBlockSize={}",
      layout, scale, numHeads, numKvHeads, cmpBlock, cmpStride, selBlock, selCount, pageBlockSize);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnNsaCompressAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* attenMaskOptional,
    const aclTensor* topkMaskOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualCmpSeqKvLenOptional, const aclIntArray* actualSelSeqKvLenOptional,
    double scaleValue, int64_t headNum, char* inputLayout, int64_t sparseMode, int64_t compressBlockSize,
    int64_t compressStride, int64_t selectBlockSize, int64_t selectBlockCount, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* attentionOutOut, const aclTensor* topkIndicesOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(query, key, value, attenMaskOptional, topkMaskOptional, actualSeqQLenOptional,
                              actualCmpSeqKvLenOptional, actualSelSeqKvLenOptional, scaleValue, headNum,
                              inputLayout, sparseMode, compressBlockSize, compressStride, selectBlockSize,
                              selectBlockCount, softmaxMaxOut, softmaxSumOut, attentionOutOut, topkIndicesOut,
                              workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaCompressAttention)

extern "C" aclnnStatus aclnnNsaCompressAttentionInferGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value,
    const aclTensor* attentionMaskOptional, const aclTensor* blockTableOptional,
    const aclIntArray* actualQSeqLenOptional, const aclIntArray* actualCmpKvSeqLenOptional,
    const aclIntArray* actualSelKvSeqLenOptional, const aclTensor* topKMaskOptional, int64_t numHeads,
    int64_t numKeyValueHeads, int64_t selectBlockSize, int64_t selectBlockCount, int64_t compressBlockSize,
    int64_t compressBlockStride, double scaleValue, char* layoutOptional, int64_t pageBlockSize,
    int64_t sparseMode, const aclTensor* output, const aclTensor* topKOutput, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  // The top-k mask is reserved by the doc; sparseMode has no mode to choose (the mask's presence
  // decides, as the kernel's attenMaskFlag).
  (void)topKMaskOptional;
  (void)sparseMode;
  return npusim::aclnn::buildInfer(
      query, key, value, attentionMaskOptional, blockTableOptional, actualQSeqLenOptional,
      actualCmpKvSeqLenOptional, actualSelKvSeqLenOptional, numHeads, numKeyValueHeads, selectBlockSize,
      selectBlockCount, compressBlockSize, compressBlockStride, scaleValue, layoutOptional, pageBlockSize,
      output, topKOutput, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaCompressAttentionInfer)
