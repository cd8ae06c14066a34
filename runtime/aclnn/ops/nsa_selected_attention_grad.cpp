// aclnnNsaSelectedAttentionGrad (ops-transformer attention/nsa_selected_attention_grad/docs/
// aclnnNsaSelectedAttentionGrad.md): dq, dk, dv of aclnnNsaSelectedAttention. Per query row i of
// batch b, head n (key head g) over the keys its topkIndices select (nsa_selected_attention.h),
// with P recomputed from the forward's statistics, P = exp(scale q k^T - softmaxMax) / softmaxSum:
//   dP = dy V_sel^T,  dS = P * (dP - rowsum(dy * attentionOut)),
//   dq = scale dS K_sel,  dk[p] += scale dS_p q,  dv[p] += P_p dy,
// dk and dv summed over every query row and head that selected key p (a block selected twice
// counts twice, as in the forward). Layout TND, D 192 or 128 (q and k equal), sparse modes 0/2
// as the forward. fp32 sums; for fp16/bf16 P and dS are rounded to the input type before the
// products that take them (the cube's operands); outputs rounded once.
// Cost: one cube tile per (batch, key head, up to 128 / G query rows): the five matmuls (S, dP,
// dV, dQ, dK: 2.5 times the forward's MACs) or the softmax backward's vector passes, reading the
// rows' q, dy, attentionOut, statistics and gathered keys/values, writing dq and the scattered dk, dv.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_nsa_selected_attention_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/nsa_selected_attention.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnNsaSelectedAttentionGrad",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_BF16},
                   "dq, dk, dv of out = softmax(scale * Q K_sel^T) V_sel"};
const OpRegistrar kRegistrar(kInfo);

constexpr double kSoftmaxPasses = 8;  // scale, -max, exp, /sum, dP - D, * P, two casts

class NsaGradInstance : public OpInstanceBase<NsaGradInstance> {
 public:
  int64_t heads = 0, kvHeads = 0, dqk = 0, dv = 0;
  std::vector<int64_t> qLen, kvFirst;
  NsaRows q, k, v, o, dy, stats, dq, dk, dvw;
  NsaSelection sel;
  double scale = 1.0;

  rt::OpWork work() const override {
    rt::OpWork w;
    w.cube = true;
    const int64_t group = heads / kvHeads, keys = sel.blockSize * sel.blockCount;
    const int64_t rowsPerTile = std::max<int64_t>(1, kNsaTileRows / group);
    const auto es = static_cast<uint64_t>(inputs[0].elementSize());
    auto addr = [](const TensorDesc& d, int64_t elem) {
      return d.data + static_cast<uint64_t>((d.offset + elem) * static_cast<int64_t>(d.elementSize()));
    };
    for (size_t bi = 0; bi < qLen.size(); ++bi) {
      const auto b = static_cast<int64_t>(bi);
      for (int64_t g = 0; g < kvHeads; ++g) {
        for (int64_t i0 = 0; i0 < qLen[bi]; i0 += rowsPerTile) {
          const int64_t rows = std::min(rowsPerTile, qLen[bi] - i0);
          const uint64_t read =
              static_cast<uint64_t>(rows * keys * (dqk + dv) + rows * group * (dqk + 2 * dv)) * es +
              static_cast<uint64_t>(rows * group * 2 * 8 * 4);
          const uint64_t write = static_cast<uint64_t>(rows * group * dqk + rows * keys * (dqk + dv)) * es;
          w.tiles.push_back(nsaAttentionTile(rows, group, keys, dqk, dv, 2.5, kSoftmaxPasses,
                                             addr(inputs[0], q.at(b, i0, g * group)), read,
                                             addr(outputs[0], dq.at(b, i0, g * group)), write));
        }
      }
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor &Q = in[0], &K = in[1], &V = in[2], &O = in[3], &DY = in[4], &MX = in[5], &SM = in[6],
                     &I = in[7];
    const aclDataType dt = Q.dtype;
    const auto es = static_cast<int64_t>(dtypeSize(dt));
    const int64_t group = heads / kvHeads, D = dqk, Dv = dv;
    const int64_t T2 = out[1].shape[0];
    std::vector<float> dkAcc(static_cast<size_t>(T2 * kvHeads * D), 0.0f),
        dvAcc(static_cast<size_t>(T2 * kvHeads * Dv), 0.0f);
    std::vector<int64_t> pos;
    std::vector<float> km, vm, qr(static_cast<size_t>(D)), dyr(static_cast<size_t>(Dv)),
        orow(static_cast<size_t>(Dv)), pr, ds, dqr(static_cast<size_t>(D));
    auto stat = [&](const HostTensor& t, int64_t b, int64_t i, int64_t n) {
      float x = 0;
      std::memcpy(&x, t.data + stats.at(b, i, n) * 4, 4);
      return x;
    };
    for (size_t bi = 0; bi < qLen.size(); ++bi) {
      const auto b = static_cast<int64_t>(bi);
      for (int64_t i = 0; i < qLen[bi]; ++i) {
        for (int64_t g = 0; g < kvHeads; ++g) {
          sel.positions(I, b, i, g, &pos);
          const auto nk = static_cast<int64_t>(pos.size());
          km.resize(static_cast<size_t>(nk * D));
          vm.resize(static_cast<size_t>(nk * Dv));
          pr.resize(static_cast<size_t>(nk));
          ds.resize(static_cast<size_t>(nk));
          for (int64_t kk = 0; kk < nk; ++kk) {
            const int64_t p = pos[static_cast<size_t>(kk)];
            loadRow(dt, K.data + k.at(b, p, g) * es, k.sd * es, D, km.data() + kk * D);
            loadRow(dt, V.data + v.at(b, p, g) * es, v.sd * es, Dv, vm.data() + kk * Dv);
          }
          for (int64_t h = 0; h < group; ++h) {
            const int64_t n = g * group + h;
            loadRow(dt, Q.data + q.at(b, i, n) * es, q.sd * es, D, qr.data());
            loadRow(dt, DY.data + dy.at(b, i, n) * es, dy.sd * es, Dv, dyr.data());
            loadRow(dt, O.data + o.at(b, i, n) * es, o.sd * es, Dv, orow.data());
            const float mx = stat(MX, b, i, n), sum = stat(SM, b, i, n);
            float rowDot = 0;
            for (int64_t d = 0; d < Dv; ++d)
              rowDot += dyr[static_cast<size_t>(d)] * orow[static_cast<size_t>(d)];
            for (int64_t kk = 0; kk < nk; ++kk) {
              float s = 0;
              for (int64_t d = 0; d < D; ++d)
                s += qr[static_cast<size_t>(d)] * km[static_cast<size_t>(kk * D + d)];
              pr[static_cast<size_t>(kk)] =
                  sum > 0 ? std::exp(static_cast<float>(s * scale) - mx) / sum : 0.0f;
            }
            if (dt != ACL_FLOAT) quantizeRow(dt, pr.data(), nk);
            for (int64_t kk = 0; kk < nk; ++kk) {
              float dp = 0;
              for (int64_t d = 0; d < Dv; ++d)
                dp += dyr[static_cast<size_t>(d)] * vm[static_cast<size_t>(kk * Dv + d)];
              ds[static_cast<size_t>(kk)] = pr[static_cast<size_t>(kk)] * (dp - rowDot);
            }
            if (dt != ACL_FLOAT) quantizeRow(dt, ds.data(), nk);
            std::fill(dqr.begin(), dqr.end(), 0.0f);
            for (int64_t kk = 0; kk < nk; ++kk) {
              const float dsk = ds[static_cast<size_t>(kk)], pk = pr[static_cast<size_t>(kk)];
              const int64_t p = kvFirst[bi] + pos[static_cast<size_t>(kk)];
              float* dkRow = dkAcc.data() + (p * kvHeads + g) * D;
              float* dvRow = dvAcc.data() + (p * kvHeads + g) * Dv;
              for (int64_t d = 0; d < D; ++d) {
                dqr[static_cast<size_t>(d)] += dsk * km[static_cast<size_t>(kk * D + d)];
                dkRow[d] += static_cast<float>(scale) * dsk * qr[static_cast<size_t>(d)];
              }
              for (int64_t d = 0; d < Dv; ++d) dvRow[d] += pk * dyr[static_cast<size_t>(d)];
            }
            for (float& x : dqr) x *= static_cast<float>(scale);
            storeRow(out[0].dtype, out[0].data + dq.at(b, i, n) * es, dq.sd * es, D, dqr.data());
          }
        }
      }
    }
    for (int64_t t = 0; t < T2; ++t) {
      for (int64_t g = 0; g < kvHeads; ++g) {
        storeRow(out[1].dtype, out[1].data + (t * dk.ss + g * dk.sn) * es, dk.sd * es, D,
                 dkAcc.data() + (t * kvHeads + g) * D);
        storeRow(out[2].dtype, out[2].data + (t * dvw.ss + g * dvw.sn) * es, dvw.sd * es, Dv,
                 dvAcc.data() + (t * kvHeads + g) * Dv);
      }
    }
  }
};

int32_t build(const aclTensor* query, const aclTensor* key, const aclTensor* value,
              const aclTensor* attentionOut, const aclTensor* dy, const aclTensor* softmaxMax,
              const aclTensor* softmaxSum, const aclTensor* topk, const aclIntArray* seqQ,
              const aclIntArray* seqKv, const aclTensor* mask, double scale, int64_t blockSize,
              int64_t blockCount, int64_t headNum, const char* layout, int64_t sparseMode,
              const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const char* api = "aclnnNsaSelectedAttentionGradGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"query", query},
                                  {"key", key},
                                  {"value", value},
                                  {"attentionOut", attentionOut},
                                  {"attentionOutGrad", dy},
                                  {"softmaxMax", softmaxMax},
                                  {"softmaxSum", softmaxSum},
                                  {"topkIndices", topk},
                                  {"actualSeqQLenOptional", seqQ},
                                  {"actualSeqKvLenOptional", seqKv},
                                  {"inputLayout", layout},
                                  {"dqOut", dqOut},
                                  {"dkOut", dkOut},
                                  {"dvOut", dvOut}});
  if (st != kSuccess) return st;
  if ((st = nsaCheckPacked(api, kInfo,
                           {{"query", query},
                            {"key", key},
                            {"value", value},
                            {"attentionOut", attentionOut},
                            {"attentionOutGrad", dy},
                            {"dqOut", dqOut},
                            {"dkOut", dkOut},
                            {"dvOut", dvOut}})) != kSuccess)
    return st;
  const auto &qs = query->desc.shape, &ks = key->desc.shape, &vs = value->desc.shape;
  const int64_t N1 = qs[1], N2 = ks[1], D = qs[2], Dv = vs[2];
  const std::vector<int64_t> outShape{qs[0], N1, Dv};
  if (N1 != headNum || N1 > 128 || N2 < 1 || N1 % N2 != 0 || N1 / N2 > 32 || vs[1] != N2 || vs[0] != ks[0] ||
      ks[2] != D || (D != 192 && D != 128) || (Dv != 192 && Dv != 128) ||
      attentionOut->desc.shape != outShape || dy->desc.shape != outShape || dqOut->desc.shape != qs ||
      dkOut->desc.shape != ks || dvOut->desc.shape != vs) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("query {}, key {}, value {}, attentionOut {}, attentionOutGrad {}, dq {}, dk {}, dv {} "
                    "outside the doc's shapes: [T1, N1 = headNum {} <= 128, D], [T2, N2, D], [T2, N2, Dv], "
                    "[T1, N1, Dv] twice, then as query, key, value; D and Dv 192 or 128, N1 / N2 <= 32",
                    shapeString(qs), shapeString(ks), shapeString(vs), shapeString(attentionOut->desc.shape),
                    shapeString(dy->desc.shape), shapeString(dqOut->desc.shape),
                    shapeString(dkOut->desc.shape), shapeString(dvOut->desc.shape), headNum));
  }
  auto inst = std::make_unique<NsaGradInstance>();
  std::vector<int64_t> qFirst;
  const NsaTrainingArgs args{layout,       sparseMode,   mask,  topk,  softmaxMax, softmaxSum,
                             "softmaxMax", "softmaxSum", qs[0], ks[0], N1,         N2,
                             blockSize,    blockCount,   seqQ,  seqKv};
  if ((st = nsaCheckTraining(api, args, &qFirst, &inst->qLen, &inst->kvFirst, &inst->sel)) != kSuccess)
    return st;
  inst->heads = N1;
  inst->kvHeads = N2;
  inst->dqk = D;
  inst->dv = Dv;
  inst->q = nsaPackedRows(query->desc, qFirst);
  inst->k = nsaPackedRows(key->desc, inst->kvFirst);
  inst->v = nsaPackedRows(value->desc, inst->kvFirst);
  inst->o = nsaPackedRows(attentionOut->desc, qFirst);
  inst->dy = nsaPackedRows(dy->desc, qFirst);
  inst->stats = nsaPackedRows(softmaxMax->desc, qFirst);
  inst->dq = nsaPackedRows(dqOut->desc, qFirst);
  inst->dk = nsaPackedRows(dkOut->desc, {});
  inst->dvw = nsaPackedRows(dvOut->desc, {});
  inst->scale = scale;
  inst->name = "aclnnNsaSelectedAttentionGrad";
  addInput(*inst, "query", query);
  addInput(*inst, "key", key);
  addInput(*inst, "value", value);
  addInput(*inst, "attentionOut", attentionOut);
  addInput(*inst, "attentionOutGrad", dy);
  addInput(*inst, "softmaxMax", softmaxMax);
  addInput(*inst, "softmaxSum", softmaxSum);
  addInput(*inst, "topkIndices", topk);
  addOutput(*inst, "dqOut", dqOut);
  addOutput(*inst, "dkOut", dkOut);
  addOutput(*inst, "dvOut", dvOut);
  inst->attrs = nsaTrainingAttrs(scale, headNum, sparseMode, blockSize, blockCount);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnNsaSelectedAttentionGradGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* attentionOut,
    const aclTensor* attentionOutGrad, const aclTensor* softmaxMax, const aclTensor* softmaxSum,
    const aclTensor* topkIndices, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, const aclTensor* attenMaskOptional, double scaleValue,
    int64_t selectedBlockSize, int64_t selectedBlockCount, int64_t headNum, char* inputLayout,
    int64_t sparseMode, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(query, key, value, attentionOut, attentionOutGrad, softmaxMax, softmaxSum,
                              topkIndices, actualSeqQLenOptional, actualSeqKvLenOptional, attenMaskOptional,
                              scaleValue, selectedBlockSize, selectedBlockCount, headNum, inputLayout,
                              sparseMode, dqOut, dkOut, dvOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(NsaSelectedAttentionGrad)
