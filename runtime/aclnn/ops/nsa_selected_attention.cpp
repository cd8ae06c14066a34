// aclnnNsaSelectedAttention (ops-transformer attention/nsa_selected_attention/docs/
// aclnnNsaSelectedAttention.md), the selected branch of native sparse attention: query row i of
// batch b, head n (key head g = n / G) attends to the keys of the selectedBlockCount blocks of
// selectedBlockSize keys topkIndices[i, g, :] names,
//   out = softmax(scale * q K_sel^T, masked) V_sel,
// layout TND (sequences packed, cumulative ends actualSeqQLen / actualSeqKvLen), softmaxMax /
// softmaxSum [T1, N1, 8] (each row's max and sum repeated 8 times). With a mask and sparse mode 2
// the top-left causal rule applies inside each sequence (key position p > i hidden, as the kernel
// masks the diagonal block); without a mask, or in mode 0, nothing is masked (the doc). An index of
// -1 or past the sequence selects nothing; a row with no visible key gives 0 (max 0, sum 0).
// fp16/bf16, fp32 products and softmax, P rounded to the input type before P V, one rounding.
// Cost: one cube tile per (batch, key head, up to 128 / G query rows): its QK^T and PV MACs over
// the selected keys or its softmax passes on the vector units, the gathered key/value rows read
// once per query row (each row has its own selection, shared by its G heads).
#include "runtime/aclnn/ops/nsa_selected_attention.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "aclnnop/aclnn_nsa_selected_attention.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

NsaRows nsaPackedRows(const TensorDesc& t, const std::vector<int64_t>& first) {
  NsaRows r;
  r.ss = t.strides[0];
  r.sn = t.strides[1];
  r.sd = t.strides[2];
  r.first = first;
  return r;
}

bool nsaPaddedRows(const TensorDesc& t, int64_t heads, int64_t D, NsaRows* r) {
  const auto& sh = t.shape;
  const auto& st = t.strides;
  if (sh.size() == 4 && sh[2] == heads && sh[3] == D) {
    *r = NsaRows{st[0], st[1], st[2], st[3], {}};
    return true;
  }
  if (sh.size() == 3 && sh[2] == heads * D) {
    *r = NsaRows{st[0], st[1], D * st[2], st[2], {}};
    return true;
  }
  return false;
}

void NsaSelection::positions(const HostTensor& indices, int64_t b, int64_t i, int64_t g,
                             std::vector<int64_t>* pos) const {
  pos->clear();
  const int64_t len = kvLen[static_cast<size_t>(b)];
  const int64_t base = topk.at(b, i, g);
  const int64_t last = i + (causalShift.empty() ? 0 : causalShift[static_cast<size_t>(b)]);
  for (int64_t c = 0; c < blockCount; ++c) {
    int32_t blk = 0;
    std::memcpy(&blk, indices.data + (base + c * topk.sd) * 4, 4);
    for (int64_t p = static_cast<int64_t>(blk) * blockSize, e = std::min(len, p + blockSize);
         blk >= 0 && p < e; ++p) {
      if (!causal || p <= last) pos->push_back(p);
    }
  }
}

int32_t nsaCheckPacked(const char* api, const OpInfo& info,
                       std::initializer_list<std::pair<const char*, const aclTensor*>> tensors, size_t rank,
                       std::initializer_list<std::pair<const char*, const aclTensor*>> ints) {
  const aclDataType dt = tensors.begin()->second->desc.dtype;
  for (const auto& [name, t] : tensors) {
    int32_t st = checkTensor(api, name, t->desc);
    if (st != kSuccess || (st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
    if (t->desc.dtype != dt || (rank != 0 && t->desc.rank() != rank)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} {} must be of {}'s type{}", name, t->desc.brief(), tensors.begin()->first,
                              rank == 3 ? " and [T, N, D]" : ""));
    }
  }
  for (const auto& [name, t] : ints) {
    const int32_t st = checkTensor(api, name, t->desc);
    if (st != kSuccess) return st;
    if (t->desc.dtype != ACL_INT32) return fail(api, kErrParamInvalid, fmt::format("{} must be int32", name));
  }
  return kSuccess;
}

int32_t nsaCheckBlocks(const char* api, int64_t blockSize, int64_t blockCount) {
  if (blockSize <= 0 || blockSize % 16 != 0 || blockSize > 128 || blockCount < 1 || blockCount > 32) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("selected block size {} (a multiple of 16 up to 128) or count {} (1 to 32) outside "
                    "the doc's limits",
                    blockSize, blockCount));
  }
  return kSuccess;
}

int32_t nsaPackedSequences(const char* api, const aclIntArray* seqQ, const aclIntArray* seqKv, int64_t T1,
                           int64_t T2, std::vector<int64_t>* qFirst, std::vector<int64_t>* qLen,
                           std::vector<int64_t>* kvFirst, std::vector<int64_t>* kvLen) {
  if (seqQ->values.empty() || seqQ->values.size() != seqKv->values.size()) {
    return fail(api, kErrParamInvalid,
                fmt::format("actualSeqQLen and actualSeqKvLen must have one entry per batch (got {} and {})",
                            seqQ->values.size(), seqKv->values.size()));
  }
  for (auto [ends, T, first, len] :
       {std::tuple{seqQ, T1, qFirst, qLen}, std::tuple{seqKv, T2, kvFirst, kvLen}}) {
    first->clear();
    len->clear();
    int64_t begin = 0;
    for (int64_t end : ends->values) {
      if (end < begin)
        return fail(api, kErrParamInvalid, "sequence ends must be non-decreasing (cumulative)");
      first->push_back(begin);
      len->push_back(end - begin);
      begin = end;
    }
    if (begin != T) {
      return fail(api, kErrParamInvalid,
                  fmt::format("the last cumulative length {} differs from the tensor's T {}", begin, T));
    }
  }
  return kSuccess;
}

int32_t nsaCheckTraining(const char* api, const NsaTrainingArgs& a, std::vector<int64_t>* qFirst,
                         std::vector<int64_t>* qLen, std::vector<int64_t>* kvFirst, NsaSelection* sel) {
  if (std::string(a.layout) != "TND") {
    return fail(api, kErrParamInvalid,
                fmt::format("inputLayout must be TND (the only one the doc supports), got {}", a.layout));
  }
  if (a.sparseMode != 0 && a.sparseMode != 2)
    return fail(api, kErrParamInvalid, fmt::format("sparseMode must be 0 or 2, got {}", a.sparseMode));
  int32_t st = nsaCheckBlocks(api, a.blockSize, a.blockCount);
  if (st != kSuccess || (st = checkTensor(api, "topkIndices", a.topk->desc)) != kSuccess) return st;
  if (a.topk->desc.dtype != ACL_INT32 ||
      a.topk->desc.shape != std::vector<int64_t>{a.T1, a.N2, a.blockCount}) {
    return fail(api, kErrParamInvalid,
                fmt::format("topkIndices {} must be int32 [T1, N2, selectedBlockCount] = [{}, {}, {}]",
                            a.topk->desc.brief(), a.T1, a.N2, a.blockCount));
  }
  for (auto [name, t] : {std::pair{a.maxName, a.softmaxMax}, {a.sumName, a.softmaxSum}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != ACL_FLOAT || t->desc.shape != std::vector<int64_t>{a.T1, a.N1, 8} ||
        t->desc.strides != a.softmaxMax->desc.strides) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} {} must be fp32 [T1, N1, 8] (both statistics alike)", name, t->desc.brief()));
    }
  }
  if (a.mask != nullptr) {
    if ((st = checkTensor(api, "attenMaskOptional", a.mask->desc)) != kSuccess) return st;
    if ((a.mask->desc.dtype != ACL_BOOL && a.mask->desc.dtype != ACL_UINT8) || a.mask->desc.rank() != 2) {
      return fail(api, kErrParamInvalid,
                  fmt::format("attenMaskOptional {} must be 2-D bool or uint8", a.mask->desc.brief()));
    }
  }
  if ((st = nsaPackedSequences(api, a.seqQ, a.seqKv, a.T1, a.T2, qFirst, qLen, kvFirst, &sel->kvLen)) !=
      kSuccess)
    return st;
  for (int64_t len : sel->kvLen) {
    if (len < a.blockSize * a.blockCount || len % a.blockSize != 0) {
      return fail(api, kErrParamInvalid,
                  fmt::format("every key sequence must be a multiple of selectedBlockSize {} and at least "
                              "selectedBlockSize * selectedBlockCount = {} long (the doc), got {}",
                              a.blockSize, a.blockSize * a.blockCount, len));
    }
  }
  sel->topk = nsaPackedRows(a.topk->desc, *qFirst);
  sel->blockSize = a.blockSize;
  sel->blockCount = a.blockCount;
  sel->causal = a.mask != nullptr && a.sparseMode == 2;
  return kSuccess;
}

std::string nsaTrainingAttrs(double scale, int64_t headNum, int64_t sparseMode, int64_t blockSize,
                             int64_t blockCount) {
  return fmt::format("scale={:.6g}, headNum={}, sparseMode={}, selectedBlockSize={}, selectedBlockCount={}",
                     scale, headNum, sparseMode, blockSize, blockCount);
}

rt::TileWork nsaAttentionTile(int64_t rows, int64_t group, int64_t keys, int64_t dqk, int64_t dv,
                              double macPasses, double softmaxPasses, uint64_t readAddr, uint64_t readBytes,
                              uint64_t writeAddr, uint64_t writeBytes) {
  const rt::CoreRates rates = rt::coreRates();
  const double vecRate =
      rates.vectorBytesPerCycle * std::max(1, rates.vectorCores / std::max(1, rates.cubeCores));
  const auto scores = static_cast<double>(rows * group * keys);
  const double macs = scores * static_cast<double>(dqk + dv) * macPasses;
  const double vecCycles = scores * 4.0 * softmaxPasses / vecRate;  // fp32 passes over the scores
  rt::TileWork t;
  t.cubeMacs = static_cast<uint64_t>(std::max(macs, vecCycles * rates.cubeMacsPerCycle));
  t.readAddr = readAddr;
  t.readBytes = readBytes;
  t.writeAddr = writeAddr;
  t.writeBytes = writeBytes;
  return t;
}

namespace {

constexpr double kSoftmaxPasses = 6;  // scale+mask, max, subtract+exp, sum, rescale, cast

class NsaForwardInstance : public OpInstanceBase<NsaForwardInstance> {
 public:
  NsaForwardProblem p;

  // Element offset of key position `pos` of batch b, key head g in a key or value view.
  int64_t keyAt(const NsaRows& r, const HostTensor* table, int64_t b, int64_t pos, int64_t g) const {
    if (p.pageBlockSize == 0) return r.at(b, pos, g);
    int32_t page = 0;
    std::memcpy(&page, table->data + (b * table->strides[0] + pos / p.pageBlockSize * table->strides[1]) * 4,
                4);
    return page * r.sb + (pos % p.pageBlockSize) * r.ss + g * r.sn;
  }

  rt::OpWork work() const override {
    rt::OpWork w;
    w.cube = true;
    const int64_t group = p.heads / p.kvHeads, keys = p.sel.blockSize * p.sel.blockCount;
    const int64_t rowsPerTile = std::max<int64_t>(1, kNsaTileRows / group);
    const auto es = static_cast<uint64_t>(inputs[0].elementSize());
    auto addr = [](const TensorDesc& d, int64_t elem) {
      return d.data + static_cast<uint64_t>((d.offset + elem) * static_cast<int64_t>(d.elementSize()));
    };
    for (size_t bi = 0; bi < p.qLen.size(); ++bi) {
      const auto b = static_cast<int64_t>(bi);
      for (int64_t g = 0; g < p.kvHeads; ++g) {
        for (int64_t i0 = 0; i0 < p.qLen[bi]; i0 += rowsPerTile) {
          const int64_t rows = std::min(rowsPerTile, p.qLen[bi] - i0);
          const uint64_t read =
              static_cast<uint64_t>(rows * keys * (p.dqk + p.dv) + rows * group * p.dqk) * es;
          const uint64_t write = static_cast<uint64_t>(rows * group) *
                                 (static_cast<uint64_t>(p.dv) * es + (p.withStats ? 2 * 8 * 4 : 0));
          w.tiles.push_back(nsaAttentionTile(rows, group, keys, p.dqk, p.dv, 1.0, kSoftmaxPasses,
                                             addr(inputs[0], p.q.at(b, i0, g * group)), read,
                                             addr(outputs.back(), p.out.at(b, i0, g * group)), write));
        }
      }
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor &Q = in[0], &K = in[1], &V = in[2], &I = in[3], &O = out.back();
    const HostTensor* table = p.pageBlockSize > 0 ? &in[4] : nullptr;
    const aclDataType dt = Q.dtype;
    const auto es = static_cast<int64_t>(dtypeSize(dt));
    const int64_t group = p.heads / p.kvHeads, D = p.dqk, Dv = p.dv;
    std::vector<int64_t> pos;
    std::vector<float> row(static_cast<size_t>(D));
    std::vector<float> qm(static_cast<size_t>(group * D)), kt, vm, s, o(static_cast<size_t>(group * Dv));
    for (size_t bi = 0; bi < p.qLen.size(); ++bi) {
      const auto b = static_cast<int64_t>(bi);
      for (int64_t i = 0; i < p.qLen[bi]; ++i) {
        for (int64_t g = 0; g < p.kvHeads; ++g) {
          p.sel.positions(I, b, i, g, &pos);
          const auto nk = static_cast<int64_t>(pos.size());
          kt.assign(static_cast<size_t>(D * nk), 0.0f);
          vm.assign(static_cast<size_t>(nk * Dv), 0.0f);
          s.assign(static_cast<size_t>(group * nk), 0.0f);
          for (int64_t k = 0; k < nk; ++k) {
            const int64_t at = pos[static_cast<size_t>(k)];
            loadRow(dt, K.data + keyAt(p.k, table, b, at, g) * es, p.k.sd * es, D, row.data());
            for (int64_t d = 0; d < D; ++d) kt[static_cast<size_t>(d * nk + k)] = row[static_cast<size_t>(d)];
            loadRow(dt, V.data + keyAt(p.v, table, b, at, g) * es, p.v.sd * es, Dv, vm.data() + k * Dv);
          }
          for (int64_t h = 0; h < group; ++h)
            loadRow(dt, Q.data + p.q.at(b, i, g * group + h) * es, p.q.sd * es, D, qm.data() + h * D);
          if (nk > 0) gemmF32(group, nk, D, qm.data(), D, kt.data(), nk, s.data(), nk);
          for (int64_t h = 0; h < group; ++h) {
            float* sr = s.data() + h * nk;
            float m = -std::numeric_limits<float>::infinity(), sum = 0;
            for (int64_t k = 0; k < nk; ++k) m = std::max(m, sr[k] = static_cast<float>(sr[k] * p.scale));
            for (int64_t k = 0; k < nk; ++k) sum += sr[k] = std::exp(sr[k] - m);
            for (int64_t k = 0; k < nk; ++k) sr[k] /= sum;
            if (dt != ACL_FLOAT) quantizeRow(dt, sr, nk);
            if (p.withStats) {
              const int64_t n = g * group + h;
              for (int which = 0; which < 2; ++which) {
                const float val = nk == 0 ? 0.0f : which == 0 ? m : sum;
                const HostTensor& t = out[static_cast<size_t>(which)];
                for (int64_t e = 0; e < 8; ++e)
                  std::memcpy(t.data + (p.stats.at(b, i, n) + e * p.stats.sd) * 4, &val, 4);
              }
            }
          }
          std::fill(o.begin(), o.end(), 0.0f);
          if (nk > 0) gemmF32(group, Dv, nk, s.data(), nk, vm.data(), Dv, o.data(), Dv);
          const auto oes = static_cast<int64_t>(dtypeSize(O.dtype));
          for (int64_t h = 0; h < group; ++h)
            storeRow(O.dtype, O.data + p.out.at(b, i, g * group + h) * oes, p.out.sd * oes, Dv,
                     o.data() + h * Dv);
        }
      }
    }
  }
};

const OpInfo kInfo{"aclnnNsaSelectedAttention",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K_sel^T, causal) V_sel over the topk blocks"};
const OpRegistrar kRegistrar(kInfo);

int32_t build(const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* topk,
              const aclTensor* mask, const aclIntArray* seqQ, const aclIntArray* seqKv, double scale,
              int64_t headNum, const char* layout, int64_t sparseMode, int64_t blockSize, int64_t blockCount,
              const aclTensor* softmaxMax, const aclTensor* softmaxSum, const aclTensor* attentionOut,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnNsaSelectedAttentionGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"query", query},
                                  {"key", key},
                                  {"value", value},
                                  {"topkIndices", topk},
                                  {"actualSeqQLenOptional", seqQ},
                                  {"actualSeqKvLenOptional", seqKv},
                                  {"inputLayout", layout},
                                  {"softmaxMaxOut", softmaxMax},
                                  {"softmaxSumOut", softmaxSum},
                                  {"attentionOut", attentionOut}});
  if (st != kSuccess) return st;
  if ((st = nsaCheckPacked(
           api, kInfo, {{"query", query}, {"key", key}, {"value", value}, {"attentionOut", attentionOut}})) !=
      kSuccess)
    return st;
  const auto &qs = query->desc.shape, &ks = key->desc.shape, &vs = value->desc.shape;
  const int64_t N1 = qs[1], N2 = ks[1];
  if (N1 != headNum || N1 < 1 || N1 > 128 || N2 < 1 || N1 % N2 != 0 || N1 / N2 > 32 || vs[1] != N2 ||
      vs[0] != ks[0] || qs[2] != 192 || ks[2] != 192 || vs[2] != 128 ||
      attentionOut->desc.shape != std::vector<int64_t>{qs[0], N1, vs[2]}) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("query {}, key {}, value {}, attentionOut {} outside the doc's shapes: [T1, N1 = headNum "
                    "{} <= 128, 192], [T2, N2, 192], [T2, N2, 128], [T1, N1, 128], G = N1 / N2 <= 32",
                    shapeString(qs), shapeString(ks), shapeString(vs), shapeString(attentionOut->desc.shape),
                    headNum));
  }
  NsaForwardProblem p;
  std::vector<int64_t> qFirst, kvFirst;
  const NsaTrainingArgs args{layout,          sparseMode,      mask,  topk,  softmaxMax, softmaxSum,
                             "softmaxMaxOut", "softmaxSumOut", qs[0], ks[0], N1,         N2,
                             blockSize,       blockCount,      seqQ,  seqKv};
  if ((st = nsaCheckTraining(api, args, &qFirst, &p.qLen, &kvFirst, &p.sel)) != kSuccess) return st;
  if (p.qLen.size() > 1024) return fail(api, kErrParamInvalid, "at most 1024 batches (the doc)");
  p.heads = N1;
  p.kvHeads = N2;
  p.dqk = qs[2];
  p.dv = vs[2];
  p.q = nsaPackedRows(query->desc, qFirst);
  p.k = nsaPackedRows(key->desc, kvFirst);
  p.v = nsaPackedRows(value->desc, kvFirst);
  p.out = nsaPackedRows(attentionOut->desc, qFirst);
  p.stats = nsaPackedRows(softmaxMax->desc, qFirst);
  p.scale = scale;
  p.withStats = true;
  auto inst = makeNsaForward(p);
  inst->name = "aclnnNsaSelectedAttention";
  addInput(*inst, "query", query);
  addInput(*inst, "key", key);
  addInput(*inst, "value", value);
  addInput(*inst, "topkIndices", topk);
  addOutput(*inst, "softmaxMaxOut", softmaxMax);
  addOutput(*inst, "softmaxSumOut", softmaxSum);
  addOutput(*inst, "attentionOut", attentionOut);
  inst->attrs = nsaTrainingAttrs(scale, headNum, sparseMode, blockSize, blockCount);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace

std::unique_ptr<OpInstance> makeNsaForward(const NsaForwardProblem& p) {
  auto inst = std::make_unique<NsaForwardInstance>();
  inst->p = p;
  return inst;
}

}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnNsaSelectedAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* topkIndices,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, double scaleValue, int64_t headNum, char* inputLayout,
    int64_t sparseMode, int64_t selectedBlockSize, int64_t selectedBlockCount, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return npusim::aclnn::build(query, key, value, topkIndices, attenMaskOptional, actualSeqQLenOptional,
                              actualSeqKvLenOptional, scaleValue, headNum, inputLayout, sparseMode,
                              selectedBlockSize, selectedBlockCount, softmaxMaxOut, softmaxSumOut,
                              attentionOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaSelectedAttention)
