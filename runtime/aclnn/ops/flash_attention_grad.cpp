// aclnnFlashAttentionScoreGrad[V2] and aclnnFlashAttentionUnpaddingScoreGrad[V2,V4]
// (ops-transformer attention/flash_attention_score_grad/docs/): the backward of
// aclnnFlashAttentionScore. Per batch b and head n, with P recomputed from the forward's
// statistics (P = exp(scale * Q K^T - softmaxMax) / softmaxSum, 0 where masked):
//   dV = P^T dY,  dP = dY V^T,  dS = P * (dP - rowsum(dY * attentionIn)),
//   dQ = scale * dS K,  dK = scale * dS^T Q,
// dK and dV summed over the query heads that share a key/value head (grouped-query attention).
// Layouts BSH, SBH, BSND, BNSD and TND (packed sequences delimited by actualSeqQLen /
// actualSeqKvLen, cumulative ends), masks and sparse modes 0-3 as the forward applies them.
// pse, dropout (dropMask, keepProb != 1), paddingMask and the rope split of V3 are refused
// with 161002 (not simulated).
//
// Numerics: fp32 products and accumulation; for fp16/bf16 P and dS are rounded to the input
// type before the matmuls that take them (the cube's operands), the results rounded once.
// Cost: one cube tile per (batch, head, block of 128 query rows) doing the five matmuls
// (S recomputed, dP, dV, dQ, dK: rows x keys x (3 D + 2 Dv) MACs, 2.5x the forward's) or its
// softmax backward on the vector units if longer; it reads its rows of q, dy, attentionIn and
// the statistics, the key/value rows once per key-value head, and writes dq (dk and dv once).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_flash_attention_score_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/flash_attention.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnFlashAttentionScoreGrad",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "dq, dk, dv of out = softmax(scale * Q K^T + mask) V"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kRowBlock = 128;    // query rows per tile, as the forward
constexpr double kSoftmaxPasses = 8;  // fp32 passes: scale+mask, -max, exp, /sum, dP-D, *P, two casts

// Where element (batch b, row i, head n, dim d) of a tensor lives, in elements:
// b * sb + (first[b] + i) * ss + n * sn + d * sd. Padded layouts have first = 0; TND has sb = 0
// and first[b] = start of sequence b in the packed rows.
struct Rows {
  int64_t N = 0, D = 0;
  int64_t sb = 0, ss = 0, sn = 0, sd = 0;
  int64_t at(const std::vector<int64_t>& first, int64_t b, int64_t i, int64_t n) const {
    return b * sb + (first[static_cast<size_t>(b)] + i) * ss + n * sn;
  }
};

// One side (queries or keys) of the problem: per batch, first row and length.
struct Seqs {
  std::vector<int64_t> first, len;
};

class FlashAttentionGradInstance : public OpInstanceBase<FlashAttentionGradInstance> {
 public:
  // Tensor views in input order q, k, v, dy, attentionIn, then dq, dk, dv.
  Rows q, k, v, dy, o, dq, dk, dv;
  Rows stats;  // softmaxMax/softmaxSum: N = heads, D = 8 (element 0 read)
  Seqs sq, skv;
  double scale = 1.0;
  int64_t preTokens = 0, nextTokens = 0, sparseMode = 0;
  int maskInput = -1;  // index of the mask among the inputs, or -1

  // Visible key range [lo, hi) of query row i of a sequence of S1 queries and S2 keys.
  void visible(int64_t i, int64_t S1, int64_t S2, int64_t* lo, int64_t* hi) const {
    int64_t a = 0, e = S2;
    if (sparseMode == 2) {
      e = std::min(S2, i + 1);
    } else if (sparseMode == 3) {
      e = std::min(S2, i + 1 + (S2 - S1));
    } else if (sparseMode == 0) {
      // Keys i - preTokens .. i + nextTokens (the tokens clamped so that nothing overflows).
      a = i - std::min(preTokens, i);
      e = std::min(S2, i + 1 + std::min(nextTokens, S2));
    }
    *lo = std::max<int64_t>(0, a);
    *hi = std::max(*lo, e);
  }

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

rt::OpWork FlashAttentionGradInstance::work() const {
  const rt::CoreRates rates = rt::coreRates();
  rt::OpWork w;
  w.cube = true;
  const int64_t es = static_cast<int64_t>(inputs[0].elementSize());
  const double macFactor = inputs[0].dtype == ACL_FLOAT ? 2.0 : 1.0;  // fp32 takes two fp16 MAC slots
  const double vecRate =
      rates.vectorBytesPerCycle * std::max(1, rates.vectorCores / std::max(1, rates.cubeCores));
  const int64_t group = q.N / k.N;
  auto addr = [](const TensorDesc& d, int64_t elem) {
    return d.data + static_cast<uint64_t>((d.offset + elem) * static_cast<int64_t>(d.elementSize()));
  };
  for (size_t bi = 0; bi < sq.len.size(); ++bi) {
    const auto b = static_cast<int64_t>(bi);
    const int64_t S1 = sq.len[bi], S2 = skv.len[bi];
    for (int64_t n = 0; n < q.N; ++n) {
      for (int64_t i0 = 0; i0 < S1; i0 += kRowBlock) {
        const int64_t rows = std::min(kRowBlock, S1 - i0);
        int64_t lo = S2, hi = 0;
        for (int64_t i = i0; i < i0 + rows; ++i) {
          int64_t a = 0, e = 0;
          visible(i, S1, S2, &a, &e);
          if (e > a) {
            lo = std::min(lo, a);
            hi = std::max(hi, e);
          }
        }
        const int64_t cols = std::max<int64_t>(0, hi - lo);
        rt::TileWork t;
        const double macs = static_cast<double>(rows * cols * (3 * q.D + 2 * v.D)) * macFactor;
        const double vecCycles = static_cast<double>(rows * cols) * 4.0 * kSoftmaxPasses / vecRate;
        t.cubeMacs = static_cast<uint64_t>(std::max(macs, vecCycles * rates.cubeMacsPerCycle));
        t.readAddr = addr(inputs[0], q.at(sq.first, b, i0, n));
        // q, dy, attentionIn rows and the two statistics (8 fp32 each per row).
        t.readBytes = static_cast<uint64_t>(rows * (q.D + 2 * v.D) * es + rows * 8 * 4 * 2);
        t.writeAddr = addr(outputs[0], dq.at(sq.first, b, i0, n));
        t.writeBytes = static_cast<uint64_t>(rows * q.D * es);
        // The first block of the first head of a key-value group brings k and v from HBM (the
        // others find them in L2) and writes the group's dk and dv.
        if (n % group == 0 && i0 == 0) {
          t.readBytes += static_cast<uint64_t>(S2 * (k.D + v.D) * es);
          t.writeBytes += static_cast<uint64_t>(S2 * (k.D + v.D) * es);
        }
        w.tiles.push_back(t);
      }
    }
  }
  return w;
}

void FlashAttentionGradInstance::compute(const std::vector<HostTensor>& in,
                                         const std::vector<HostTensor>& out) const {
  const int64_t D = q.D, Dv = v.D, group = q.N / k.N;
  const aclDataType dt = in[0].dtype;
  const int64_t es = static_cast<int64_t>(dtypeSize(dt));
  const bool lowPrecision = dt != ACL_FLOAT;
  const HostTensor &Q = in[0], &K = in[1], &V = in[2], &DY = in[3], &O = in[4], &MX = in[5], &SM = in[6];
  const HostTensor* mask = maskInput >= 0 ? &in[static_cast<size_t>(maskInput)] : nullptr;
  auto masked = [&](int64_t b, int64_t n, int64_t i, int64_t j) {
    return mask != nullptr && sparseMode < 2 && attentionMasked(*mask, b, n, i, j);
  };
  auto load = [&](const HostTensor& t, const Rows& r, const Seqs& s, int64_t b, int64_t i, int64_t n,
                  int64_t len, float* dst) {
    loadRow(t.dtype, t.data + r.at(s.first, b, i, n) * es, r.sd * es, len, dst);
  };
  auto stat = [&](const HostTensor& t, int64_t b, int64_t i, int64_t n) {
    float x = 0;
    std::memcpy(&x, t.data + stats.at(sq.first, b, i, n) * 4, 4);
    return x;
  };
  auto transpose = [](const std::vector<float>& a, int64_t rows, int64_t cols, std::vector<float>* t) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        (*t)[static_cast<size_t>(c * rows + r)] = a[static_cast<size_t>(r * cols + c)];
  };
  for (size_t bi = 0; bi < sq.len.size(); ++bi) {
    const auto b = static_cast<int64_t>(bi);
    const int64_t S1 = sq.len[bi], S2 = skv.len[bi];
    const auto n1 = static_cast<size_t>(S1), n2 = static_cast<size_t>(S2);
    std::vector<float> km(n2 * D), kt(D * n2), vt(Dv * n2), qm(n1 * D), dym(n1 * Dv), p(n1 * n2), dp(n1 * n2),
        pt(n2 * n1), dqm(n1 * D), tmp(n2 * std::max(D, Dv)), dkAcc(n2 * D), dvAcc(n2 * Dv),
        row(std::max(D, Dv)), orow(Dv);
    for (int64_t kn = 0; kn < k.N; ++kn) {
      for (int64_t j = 0; j < S2; ++j) {
        load(K, k, skv, b, j, kn, D, km.data() + j * D);
        load(V, v, skv, b, j, kn, Dv, row.data());
        for (int64_t d = 0; d < Dv; ++d) vt[static_cast<size_t>(d * S2 + j)] = row[static_cast<size_t>(d)];
      }
      transpose(km, S2, D, &kt);
      std::fill(dkAcc.begin(), dkAcc.end(), 0.0f);
      std::fill(dvAcc.begin(), dvAcc.end(), 0.0f);
      for (int64_t n = kn * group; n < (kn + 1) * group; ++n) {
        for (int64_t i = 0; i < S1; ++i) {
          load(Q, q, sq, b, i, n, D, qm.data() + i * D);
          load(DY, dy, sq, b, i, n, Dv, dym.data() + i * Dv);
        }
        gemmF32(S1, S2, D, qm.data(), D, kt.data(), S2, p.data(), S2);
        gemmF32(S1, S2, Dv, dym.data(), Dv, vt.data(), S2, dp.data(), S2);
        for (int64_t i = 0; i < S1; ++i) {
          float* pr = p.data() + i * S2;
          float* dpr = dp.data() + i * S2;
          const float mx = stat(MX, b, i, n), sum = stat(SM, b, i, n);
          int64_t lo = 0, hi = 0;
          visible(i, S1, S2, &lo, &hi);
          for (int64_t j = 0; j < S2; ++j) {
            const bool off = j < lo || j >= hi || masked(b, n, i, j) || sum == 0.0f;
            pr[j] = off ? 0.0f : std::exp(static_cast<float>(pr[j] * scale) - mx) / sum;
          }
          // D_i = rowsum(dY * O): the softmax backward's correction term.
          load(O, o, sq, b, i, n, Dv, orow.data());
          float corr = 0;
          for (int64_t d = 0; d < Dv; ++d)
            corr += dym[static_cast<size_t>(i * Dv + d)] * orow[static_cast<size_t>(d)];
          if (lowPrecision) quantizeRow(dt, pr, S2);
          for (int64_t j = 0; j < S2; ++j) dpr[j] = pr[j] * (dpr[j] - corr);
          if (lowPrecision) quantizeRow(dt, dpr, S2);
        }
        // dV += P^T dY
        transpose(p, S1, S2, &pt);
        gemmF32(S2, Dv, S1, pt.data(), S1, dym.data(), Dv, tmp.data(), Dv);
        for (size_t e = 0; e < n2 * Dv; ++e) dvAcc[e] += tmp[e];
        // dK += scale * dS^T Q
        transpose(dp, S1, S2, &pt);
        gemmF32(S2, D, S1, pt.data(), S1, qm.data(), D, tmp.data(), D);
        for (size_t e = 0; e < n2 * D; ++e) dkAcc[e] += static_cast<float>(tmp[e] * scale);
        // dQ = scale * dS K
        gemmF32(S1, D, S2, dp.data(), S2, km.data(), D, dqm.data(), D);
        for (auto& x : dqm) x = static_cast<float>(x * scale);
        for (int64_t i = 0; i < S1; ++i)
          storeRow(out[0].dtype, out[0].data + dq.at(sq.first, b, i, n) * es, dq.sd * es, D,
                   dqm.data() + i * D);
      }
      for (int64_t j = 0; j < S2; ++j) {
        storeRow(out[1].dtype, out[1].data + dk.at(skv.first, b, j, kn) * es, dk.sd * es, D,
                 dkAcc.data() + j * D);
        storeRow(out[2].dtype, out[2].data + dv.at(skv.first, b, j, kn) * es, dv.sd * es, Dv,
                 dvAcc.data() + j * Dv);
      }
    }
  }
}

// Views of a padded-layout tensor: B and S from the shape, heads given (H = heads * D).
bool paddedRows(const TensorDesc& t, const std::string& layout, int64_t heads, Rows* r, int64_t* B,
                int64_t* S) {
  const auto& sh = t.shape;
  const auto& st = t.strides;
  if (layout == "BSH" || layout == "SBH") {
    if (sh.size() != 3 || heads <= 0 || sh[2] % heads != 0) return false;
    const int ib = layout == "BSH" ? 0 : 1, is = 1 - ib;
    *B = sh[static_cast<size_t>(ib)];
    *S = sh[static_cast<size_t>(is)];
    *r = Rows{
        heads, sh[2] / heads, st[static_cast<size_t>(ib)], st[static_cast<size_t>(is)], sh[2] / heads * st[2],
        st[2]};
    return true;
  }
  if (sh.size() != 4) return false;
  const bool bsnd = layout == "BSND";
  if (!bsnd && layout != "BNSD") return false;
  const size_t is = bsnd ? 1 : 2, in = bsnd ? 2 : 1;
  *B = sh[0];
  *S = sh[is];
  *r = Rows{sh[in], sh[3], st[0], st[is], st[in], st[3]};
  return true;
}

// TND: [T, N, D], the batch given by the sequences.
bool packedRows(const TensorDesc& t, Rows* r) {
  if (t.shape.size() != 3) return false;
  *r = Rows{t.shape[1], t.shape[2], 0, t.strides[0], t.strides[1], t.strides[2]};
  return true;
}

// Cumulative sequence ends -> first rows and lengths; false unless non-decreasing within [0, T].
bool sequences(const aclIntArray* ends, int64_t T, Seqs* s) {
  int64_t prev = 0;
  for (int64_t e : ends->values) {
    if (e < prev || e > T) return false;
    s->first.push_back(prev);
    s->len.push_back(e - prev);
    prev = e;
  }
  return !ends->values.empty();
}

struct GradArgs {
  const char* api;
  const aclTensor *query, *key, *value, *dy, *pse, *dropMask, *paddingMask, *attenMask, *softmaxMax,
      *softmaxSum, *attentionIn;
  const aclIntArray *seqQ, *seqKv;  // TND only
  double scale, keepProb;
  int64_t preTokens, nextTokens, headNum;
  const char* layout;
  int64_t sparseMode;
  const aclTensor *dq, *dk, *dv;
  const char* statsLayout;  // TND: "same_as_input" ([T, N, 8]) or "" ([N, T, 8])
};

int32_t buildGrad(const GradArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = a.api;
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"query", a.query},
                                  {"keyIn", a.key},
                                  {"value", a.value},
                                  {"dy", a.dy},
                                  {"softmaxMaxOptional", a.softmaxMax},
                                  {"softmaxSumOptional", a.softmaxSum},
                                  {"attentionInOptional", a.attentionIn},
                                  {"inputLayout", a.layout},
                                  {"dqOut", a.dq},
                                  {"dkOut", a.dk},
                                  {"dvOut", a.dv}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{"query", a.query},
                         {"keyIn", a.key},
                         {"value", a.value},
                         {"dy", a.dy},
                         {"attentionInOptional", a.attentionIn},
                         {"dqOut", a.dq},
                         {"dkOut", a.dk},
                         {"dvOut", a.dv}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
    if (t->desc.dtype != a.query->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} differs from query type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(a.query->desc.dtype)));
    }
  }
  if (a.pse != nullptr || a.dropMask != nullptr || a.paddingMask != nullptr || a.keepProb != 1.0) {
    return fail(api, kErrParamInvalid,
                "pseShift, dropout (dropMask, keepProb != 1) and paddingMask are not simulated: the forward "
                "does not simulate them either, so its dropout mask cannot be reproduced");
  }
  if (a.sparseMode < 0 || a.sparseMode > 3) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("sparseMode {} is not simulated (0: mask and band, 1: mask, 2/3: causal)", a.sparseMode));
  }
  const std::string layout(a.layout);
  auto inst = std::make_unique<FlashAttentionGradInstance>();
  FlashAttentionGradInstance& g = *inst;
  const bool tnd = layout == "TND";
  const auto shape = [](const aclTensor* t) { return shapeString(t->desc.shape); };
  const std::string shapes = fmt::format(
      "query {}, keyIn {}, value {}, dy {}, attentionIn {}, dq {}, dk {}, dv {}", shape(a.query),
      shape(a.key), shape(a.value), shape(a.dy), shape(a.attentionIn), shape(a.dq), shape(a.dk), shape(a.dv));
  if (tnd) {
    if (a.seqQ == nullptr || a.seqKv == nullptr) {
      return fail(api, kErrParamNullptr, "TND needs actualSeqQLenOptional and actualSeqKvLenOptional");
    }
    bool ok = packedRows(a.query->desc, &g.q) && packedRows(a.key->desc, &g.k) &&
              packedRows(a.value->desc, &g.v) && packedRows(a.dy->desc, &g.dy) &&
              packedRows(a.attentionIn->desc, &g.o) && packedRows(a.dq->desc, &g.dq) &&
              packedRows(a.dk->desc, &g.dk) && packedRows(a.dv->desc, &g.dv);
    if (!ok || g.q.N != a.headNum) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("TND tensors must be [T, N, D] with N of query = headNum {}: {}", a.headNum, shapes));
    }
    if (!sequences(a.seqQ, a.query->desc.shape[0], &g.sq) ||
        !sequences(a.seqKv, a.key->desc.shape[0], &g.skv) || g.sq.len.size() != g.skv.len.size()) {
      return fail(
          api, kErrParamInvalid,
          "actualSeqQLen / actualSeqKvLen must be equally long, non-decreasing cumulative ends within T");
    }
  } else {
    int64_t B = 0, S1 = 0, S2 = 0, Bx = 0, Sx = 0;
    bool ok = a.headNum > 0 && paddedRows(a.query->desc, layout, a.headNum, &g.q, &B, &S1);
    // Key/value heads: from the shape in BSND/BNSD, from H / D in BSH/SBH.
    int64_t kvHeads = a.headNum;
    if (ok && (layout == "BSH" || layout == "SBH"))
      kvHeads = a.key->desc.rank() == 3 && g.q.D > 0 ? a.key->desc.shape[2] / g.q.D : 0;
    ok = ok && kvHeads > 0 && paddedRows(a.key->desc, layout, kvHeads, &g.k, &Bx, &S2) && Bx == B &&
         paddedRows(a.value->desc, layout, kvHeads, &g.v, &Bx, &Sx) && Bx == B && Sx == S2 &&
         paddedRows(a.dy->desc, layout, a.headNum, &g.dy, &Bx, &Sx) &&
         paddedRows(a.attentionIn->desc, layout, a.headNum, &g.o, &Bx, &Sx) &&
         paddedRows(a.dq->desc, layout, a.headNum, &g.dq, &Bx, &Sx) &&
         paddedRows(a.dk->desc, layout, kvHeads, &g.dk, &Bx, &Sx) &&
         paddedRows(a.dv->desc, layout, kvHeads, &g.dv, &Bx, &Sx);
    if (!ok) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("shapes do not fit layout {} with headNum {} (layouts: BSH, SBH, BSND, BNSD, TND): {}",
                      layout, a.headNum, shapes));
    }
    g.sq = Seqs{std::vector<int64_t>(static_cast<size_t>(B), 0),
                std::vector<int64_t>(static_cast<size_t>(B), S1)};
    g.skv = Seqs{std::vector<int64_t>(static_cast<size_t>(B), 0),
                 std::vector<int64_t>(static_cast<size_t>(B), S2)};
  }
  if (a.dy->desc.shape != a.query->desc.shape || a.attentionIn->desc.shape != a.query->desc.shape ||
      a.dq->desc.shape != a.query->desc.shape || a.dk->desc.shape != a.key->desc.shape ||
      a.dv->desc.shape != a.value->desc.shape || a.value->desc.shape != a.key->desc.shape || g.k.D != g.q.D ||
      g.k.N <= 0 || g.q.N % g.k.N != 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("shapes do not agree ({}): dy, attentionIn and dq as query, dk and dv as keyIn, "
                            "value as keyIn, equal head dimensions, headNum a multiple of the key heads",
                            shapes));
  }
  // Statistics: [B, N, S1, 8]; TND [T1, N, 8] ("same_as_input") or [N, T1, 8].
  const int64_t B = static_cast<int64_t>(g.sq.len.size());
  std::vector<int64_t> statShape;
  const std::string statsLayout = a.statsLayout == nullptr ? "same_as_input" : a.statsLayout;
  if (tnd && statsLayout != "same_as_input" && !statsLayout.empty()) {
    return fail(api, kErrParamInvalid,
                fmt::format("softmaxInLayout must be \"same_as_input\" or \"\", but is \"{}\"", statsLayout));
  }
  if (!tnd)
    statShape = {B, g.q.N, g.sq.len.empty() ? 0 : g.sq.len[0], 8};
  else if (statsLayout.empty())
    statShape = {g.q.N, a.query->desc.shape[0], 8};
  else
    statShape = {a.query->desc.shape[0], g.q.N, 8};
  for (auto [name, t] :
       {std::pair{"softmaxMaxOptional", a.softmaxMax}, {"softmaxSumOptional", a.softmaxSum}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != ACL_FLOAT) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type must be fp32, but is {}", name, dtypeName(t->desc.dtype)));
    }
    if ((st = checkShape(api, name, t->desc.shape, statShape)) != kSuccess) return st;
    if (t->desc.strides != a.softmaxMax->desc.strides) {
      return fail(api, kErrParamInvalid, "softmaxMax and softmaxSum must have the same strides");
    }
  }
  const auto& ss = a.softmaxMax->desc.strides;
  if (!tnd)
    g.stats = Rows{g.q.N, 8, ss[0], ss[2], ss[1], ss[3]};
  else if (statsLayout.empty())
    g.stats = Rows{g.q.N, 8, 0, ss[1], ss[0], ss[2]};
  else
    g.stats = Rows{g.q.N, 8, 0, ss[0], ss[1], ss[2]};
  const int64_t maxS1 = *std::max_element(g.sq.len.begin(), g.sq.len.end());
  const int64_t maxS2 = *std::max_element(g.skv.len.begin(), g.skv.len.end());
  if (a.attenMask != nullptr) {
    if ((st = checkTensor(api, "attenMaskOptional", a.attenMask->desc)) != kSuccess) return st;
    const auto& ms = a.attenMask->desc.shape;
    const bool typeOk = a.attenMask->desc.dtype == ACL_BOOL || a.attenMask->desc.dtype == ACL_UINT8;
    bool shapeOk = ms.size() == 2 || (ms.size() == 4 && !tnd);
    if (shapeOk && a.sparseMode < 2) {
      shapeOk = ms[ms.size() - 2] >= maxS1 && ms[ms.size() - 1] >= maxS2 &&
                (tnd || (ms[ms.size() - 2] == maxS1 && ms[ms.size() - 1] == maxS2)) &&
                (ms.size() == 2 || ((ms[0] == 1 || ms[0] == B) && (ms[1] == 1 || ms[1] == g.q.N)));
    }
    if (!typeOk || !shapeOk) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("attenMaskOptional {} must be bool or uint8 of shape [S1,S2], [1,1,S1,S2], "
                      "[B,1,S1,S2] or [B,N,S1,S2] (S1 = {}, S2 = {}; TND: 2-D, covering every sequence)",
                      a.attenMask->desc.brief(), maxS1, maxS2));
    }
  } else if (a.sparseMode == 1) {
    return fail(api, kErrParamInvalid, "sparseMode 1 (allMask) needs attenMaskOptional");
  }
  g.name = "aclnnFlashAttentionScoreGrad";
  g.scale = a.scale;
  g.preTokens = a.preTokens;
  g.nextTokens = a.nextTokens;
  g.sparseMode = a.sparseMode;
  addInput(g, "query", a.query);
  addInput(g, "keyIn", a.key);
  addInput(g, "value", a.value);
  addInput(g, "dy", a.dy);
  addInput(g, "attentionIn", a.attentionIn);
  addInput(g, "softmaxMax", a.softmaxMax);
  addInput(g, "softmaxSum", a.softmaxSum);
  if (a.attenMask != nullptr) {
    g.maskInput = 7;
    addInput(g, "attenMask", a.attenMask);
  }
  addOutput(g, "dqOut", a.dq);
  addOutput(g, "dkOut", a.dk);
  addOutput(g, "dvOut", a.dv);
  g.attrs = fmt::format("layout={}, headNum={}, scale={:.6g}, sparseMode={}, preTokens={}, nextTokens={}",
                        layout, a.headNum, a.scale, a.sparseMode, a.preTokens, a.nextTokens);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::buildGrad;
using npusim::aclnn::GradArgs;

// innerPrecise is the device kernel's precision hint; softmaxIn is reserved; prefix only feeds
// the prefix sparse modes (refused); qStartIdx/kvStartIdx/pseType only shape the pse (refused).
extern "C" aclnnStatus aclnnFlashAttentionScoreGradGetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional,
    const aclIntArray* prefixOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode,
    const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut, const aclTensor* dpseOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)softmaxInOptional, (void)prefixOptional, (void)innerPrecise, (void)dpseOut;
  return buildGrad(GradArgs{"aclnnFlashAttentionScoreGradGetWorkspaceSize",
                            query,
                            keyIn,
                            value,
                            dy,
                            pseShiftOptional,
                            dropMaskOptional,
                            paddingMaskOptional,
                            attenMaskOptional,
                            softmaxMaxOptional,
                            softmaxSumOptional,
                            attentionInOptional,
                            nullptr,
                            nullptr,
                            scaleValue,
                            keepProb,
                            preTokens,
                            nextTokens,
                            headNum,
                            inputLayout,
                            sparseMode,
                            dqOut,
                            dkOut,
                            dvOut,
                            nullptr},
                   workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionScoreGrad)

extern "C" aclnnStatus aclnnFlashAttentionScoreGradV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional,
    const aclIntArray* prefixOptional, const aclIntArray* qStartIdxOptional,
    const aclIntArray* kvStartIdxOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode,
    int64_t pseType, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)softmaxInOptional, (void)prefixOptional, (void)innerPrecise, (void)dpseOut;
  (void)qStartIdxOptional, (void)kvStartIdxOptional, (void)pseType;
  return buildGrad(GradArgs{"aclnnFlashAttentionScoreGradV2GetWorkspaceSize",
                            query,
                            keyIn,
                            value,
                            dy,
                            pseShiftOptional,
                            dropMaskOptional,
                            paddingMaskOptional,
                            attenMaskOptional,
                            softmaxMaxOptional,
                            softmaxSumOptional,
                            attentionInOptional,
                            nullptr,
                            nullptr,
                            scaleValue,
                            keepProb,
                            preTokens,
                            nextTokens,
                            headNum,
                            inputLayout,
                            sparseMode,
                            dqOut,
                            dkOut,
                            dvOut,
                            nullptr},
                   workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionScoreGradV2)

extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradGetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional,
    const aclIntArray* prefixOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode,
    const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut, const aclTensor* dpseOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)softmaxInOptional, (void)prefixOptional, (void)innerPrecise, (void)dpseOut;
  return buildGrad(GradArgs{"aclnnFlashAttentionUnpaddingScoreGradGetWorkspaceSize",
                            query,
                            keyIn,
                            value,
                            dy,
                            pseShiftOptional,
                            dropMaskOptional,
                            paddingMaskOptional,
                            attenMaskOptional,
                            softmaxMaxOptional,
                            softmaxSumOptional,
                            attentionInOptional,
                            actualSeqQLenOptional,
                            actualSeqKvLenOptional,
                            scaleValue,
                            keepProb,
                            preTokens,
                            nextTokens,
                            headNum,
                            inputLayout,
                            sparseMode,
                            dqOut,
                            dkOut,
                            dvOut,
                            nullptr},
                   workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionUnpaddingScoreGrad)

extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional,
    const aclIntArray* prefixOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, const aclIntArray* qStartIdxOptional,
    const aclIntArray* kvStartIdxOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode,
    int64_t pseType, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)softmaxInOptional, (void)prefixOptional, (void)innerPrecise, (void)dpseOut;
  (void)qStartIdxOptional, (void)kvStartIdxOptional, (void)pseType;
  return buildGrad(GradArgs{"aclnnFlashAttentionUnpaddingScoreGradV2GetWorkspaceSize",
                            query,
                            keyIn,
                            value,
                            dy,
                            pseShiftOptional,
                            dropMaskOptional,
                            paddingMaskOptional,
                            attenMaskOptional,
                            softmaxMaxOptional,
                            softmaxSumOptional,
                            attentionInOptional,
                            actualSeqQLenOptional,
                            actualSeqKvLenOptional,
                            scaleValue,
                            keepProb,
                            preTokens,
                            nextTokens,
                            headNum,
                            inputLayout,
                            sparseMode,
                            dqOut,
                            dkOut,
                            dvOut,
                            nullptr},
                   workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionUnpaddingScoreGradV2)

// V3 splits q and k into a base part and a rotary part with their own gradients: not simulated.
extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradV3GetWorkspaceSize(
    const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*,
    const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*,
    const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclIntArray*,
    const aclIntArray*, const aclIntArray*, const aclIntArray*, const aclIntArray*, double, double, int64_t,
    int64_t, int64_t, char*, int64_t, int64_t, int64_t, const aclTensor*, const aclTensor*, const aclTensor*,
    const aclTensor*, const aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**) {
  return npusim::aclnn::fail("aclnnFlashAttentionUnpaddingScoreGradV3GetWorkspaceSize",
                             npusim::aclnn::kErrParamInvalid,
                             "the rope split of query/key (queryRope, keyInRope) is not simulated");
}

NPUSIM_ACLNN_PHASE2(FlashAttentionUnpaddingScoreGradV3)

extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradV4GetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional,
    const aclIntArray* prefixOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode,
    const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut, const aclTensor* dpseOut,
    char* softmaxInLayout, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)softmaxInOptional, (void)prefixOptional, (void)innerPrecise, (void)dpseOut;
  return buildGrad(GradArgs{"aclnnFlashAttentionUnpaddingScoreGradV4GetWorkspaceSize",
                            query,
                            keyIn,
                            value,
                            dy,
                            pseShiftOptional,
                            dropMaskOptional,
                            paddingMaskOptional,
                            attenMaskOptional,
                            softmaxMaxOptional,
                            softmaxSumOptional,
                            attentionInOptional,
                            actualSeqQLenOptional,
                            actualSeqKvLenOptional,
                            scaleValue,
                            keepProb,
                            preTokens,
                            nextTokens,
                            headNum,
                            inputLayout,
                            sparseMode,
                            dqOut,
                            dkOut,
                            dvOut,
                            softmaxInLayout},
                   workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionUnpaddingScoreGradV4)
