// aclnnFlashAttentionScore / aclnnFlashAttentionScoreV2 (ops-transformer attention/
// flash_attention_score/docs/aclnnFlashAttentionScore.md): per batch b and head n,
//   attentionOut = softmax(scale * Q K^T, masked) V,
// with layouts BSH, SBH, BSND, BNSD, grouped-query attention (key/value heads dividing headNum),
// an optional bool/uint8 attention mask (1 = masked), the band preTokens/nextTokens and the
// sparse modes 0 (mask + band), 1 (mask only), 2 (causal from the top left), 3 (causal from
// the bottom right: the last query sees every key). Modes 2 and 3 take the mask as the
// operator's compressed causal pattern and apply the rule directly. pse, dropout, padding
// are not simulated (161002 says so). softmaxMaxOut/softmaxSumOut ([B,N,S1,8] fp32)
// receive each row's max and sum repeated 8 times, as the device writes them.
//
// Numerics: fp32 products and accumulation, softmax in fp32, P rounded to the input type
// before P V (the cube takes fp16/bf16), the result rounded once. Cost: one cube tile per
// (batch, head, block of 128 query rows[, key chunk]); its time is the larger of its MACs on
// the cube and its softmax on the core's two vector units, and it reads the key/value rows it
// needs once per key-value head (later heads and blocks hit the L2).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "aclnnop/aclnn_flash_attention_score.h"
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

const OpInfo kInfo{"aclnnFlashAttentionScore",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = softmax(scale * Q K^T + mask) V"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kRowBlock = 128;    // query rows per tile (S1 base block of the kernel)
constexpr int64_t kColBlock = 128;    // key granularity at which masked blocks are skipped
constexpr int64_t kMinKvChunk = 512;  // smallest key chunk when short queries are split over cores
constexpr double kSoftmaxPasses = 6;  // scale+mask, max, subtract+exp, sum, rescale, cast: fp32 passes

// Element strides of a tensor along the logical axes batch, sequence, head, head-dim.
struct Axes {
  int64_t B = 0, S = 0, N = 0, D = 0;
  int64_t sb = 0, ss = 0, sn = 0, sd = 0;
};

// Reads shape/strides of `t` under `layout`; `heads` = N for BSH/SBH (H = N * D).
bool axesOf(const TensorDesc& t, const std::string& layout, int64_t heads, Axes* a) {
  const auto& sh = t.shape;
  const auto& st = t.strides;
  if (layout == "BSH" || layout == "SBH") {
    if (sh.size() != 3 || heads <= 0 || sh[2] % heads != 0) return false;
    const bool bsh = layout == "BSH";
    a->B = sh[bsh ? 0 : 1];
    a->S = sh[bsh ? 1 : 0];
    a->N = heads;
    a->D = sh[2] / heads;
    a->sb = st[bsh ? 0 : 1];
    a->ss = st[bsh ? 1 : 0];
    a->sd = st[2];
    a->sn = a->D * st[2];
    return true;
  }
  if (sh.size() != 4) return false;
  if (layout == "BSND") {
    *a = Axes{sh[0], sh[1], sh[2], sh[3], st[0], st[1], st[2], st[3]};
    return true;
  }
  if (layout == "BNSD") {
    *a = Axes{sh[0], sh[2], sh[1], sh[3], st[0], st[2], st[1], st[3]};
    return true;
  }
  return false;
}

class FlashAttentionInstance : public OpInstanceBase<FlashAttentionInstance> {
 public:
  Axes q, k, v, o;
  double scale = 1.0;
  int64_t preTokens = 0, nextTokens = 0, sparseMode = 0;
  bool hasMask = false;  // inputs[3] is the mask

  // Visible key range [lo, hi) of query row i under the sparse mode (mask contents aside).
  void visible(int64_t i, int64_t* lo, int64_t* hi) const {
    const int64_t S2 = k.S;
    int64_t a = 0, b = S2;
    if (sparseMode == 2) {
      b = std::min(S2, i + 1);
    } else if (sparseMode == 3) {
      b = std::min(S2, i + 1 + (S2 - q.S));
    } else if (sparseMode == 0) {
      a = preTokens >= i ? 0 : i - preTokens;  // no clip to S2: with S1 > S2 that hid early keys
      b = std::min(S2, i + 1 + std::min(nextTokens, S2));
    }
    *lo = std::max<int64_t>(0, a);
    *hi = std::max(*lo, b);
  }

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

rt::OpWork FlashAttentionInstance::work() const {
  const rt::CoreRates rates = rt::coreRates();
  rt::OpWork w;
  w.cube = true;
  const int64_t rowBlocks = (q.S + kRowBlock - 1) / kRowBlock;
  const int64_t baseTiles = q.B * q.N * rowBlocks;
  // Short query sequences (decoding) split the keys over the cores: the number of chunks whose
  // waves of tiles take the least time, ceil(tiles / cores) x keys per chunk (32 heads on 24
  // cores: 3 chunks in 4 full waves beat 2 waves of whole heads, the second a third full).
  int64_t chunks = 1;
  if (rowBlocks == 1 && k.S > kMinKvChunk) {
    const int64_t most = (k.S + kMinKvChunk - 1) / kMinKvChunk;
    auto cost = [&](int64_t c) {
      return (baseTiles * c + rates.cubeCores - 1) / rates.cubeCores * ((k.S + c - 1) / c);
    };
    for (int64_t c = 2; c <= most; ++c)
      if (cost(c) < cost(chunks)) chunks = c;
  }
  const int64_t chunkLen = (k.S + chunks - 1) / chunks;
  const int64_t qEs = static_cast<int64_t>(inputs[0].elementSize());
  const int64_t kvEs = static_cast<int64_t>(inputs[1].elementSize());
  const int64_t oEs = static_cast<int64_t>(outputs.back().elementSize());
  const bool stats = outputs.size() == 3;  // softmaxMaxOut and softmaxSumOut come first
  const double macFactor = inputs[0].dtype == ACL_FLOAT ? 2.0 : 1.0;  // fp32 takes two fp16 MAC slots
  const double vecRate =
      rates.vectorBytesPerCycle * std::max(1, rates.vectorCores / std::max(1, rates.cubeCores));
  const int64_t group = q.N / k.N;
  auto addr = [](const TensorDesc& d, int64_t elem) {
    return d.data + static_cast<uint64_t>((d.offset + elem) * static_cast<int64_t>(d.elementSize()));
  };
  for (int64_t b = 0; b < q.B; ++b) {
    for (int64_t n = 0; n < q.N; ++n) {
      for (int64_t blk = 0; blk < rowBlocks; ++blk) {
        const int64_t i0 = blk * kRowBlock, rows = std::min(kRowBlock, q.S - i0);
        for (int64_t c = 0; c < chunks; ++c) {
          const int64_t c0 = c * chunkLen, c1 = std::min(k.S, c0 + chunkLen);
          // Keys this block touches, at the kernel's block granularity.
          int64_t lo = k.S, hi = 0;
          for (int64_t i = i0; i < i0 + rows; ++i) {
            int64_t a = 0, e = 0;
            visible(i, &a, &e);
            if (e > a) {
              lo = std::min(lo, a);
              hi = std::max(hi, e);
            }
          }
          lo = std::max(lo / kColBlock * kColBlock, c0);
          hi = std::min((hi + kColBlock - 1) / kColBlock * kColBlock, c1);
          const int64_t cols = std::max<int64_t>(0, hi - lo);
          rt::TileWork t;
          const double macs = static_cast<double>(rows * cols * (q.D + v.D)) * macFactor;
          const double vecCycles = static_cast<double>(rows * cols) * 4.0 * kSoftmaxPasses / vecRate;
          t.cubeMacs = static_cast<uint64_t>(std::max(macs, vecCycles * rates.cubeMacsPerCycle));
          t.readAddr = addr(inputs[0], b * q.sb + i0 * q.ss + n * q.sn);
          t.readBytes = static_cast<uint64_t>(rows * q.D * qEs);
          // The first head of a key-value group and the first row block bring the chunk's keys
          // and values from HBM; the others find them in L2.
          if (n % group == 0 && (chunks > 1 || blk == 0)) {
            const int64_t keys = chunks > 1 ? cols : k.S;
            t.readBytes += static_cast<uint64_t>(keys * (k.D + v.D) * kvEs);
          }
          t.writeAddr = addr(outputs.back(), b * o.sb + i0 * o.ss + n * o.sn);
          t.writeBytes = static_cast<uint64_t>(rows * v.D * oEs + (stats ? rows * 8 * 4 * 2 : 0));
          w.tiles.push_back(t);
        }
      }
    }
  }
  return w;
}

void FlashAttentionInstance::compute(const std::vector<HostTensor>& in,
                                     const std::vector<HostTensor>& out) const {
  const int64_t S1 = q.S, S2 = k.S, D = q.D, Dv = v.D, group = q.N / k.N;
  const HostTensor &Q = in[0], &K = in[1], &V = in[2];
  const int64_t qEs = static_cast<int64_t>(dtypeSize(Q.dtype)),
                kEs = static_cast<int64_t>(dtypeSize(K.dtype));
  const HostTensor& O = out.back();
  const int64_t oEs = static_cast<int64_t>(dtypeSize(O.dtype));
  std::vector<float> qm(static_cast<size_t>(S1 * D)), kt(static_cast<size_t>(D * S2)),
      vm(static_cast<size_t>(S2 * Dv)), s(static_cast<size_t>(S1 * S2)), ob(static_cast<size_t>(S1 * Dv)),
      row(static_cast<size_t>(std::max(D, Dv)));
  std::vector<float> mx(static_cast<size_t>(S1)), sm(static_cast<size_t>(S1));
  // Mask element (b, n, i, j) with broadcasting over its leading dimensions.
  const HostTensor* mask = hasMask ? &in[3] : nullptr;
  auto masked = [&](int64_t b, int64_t n, int64_t i, int64_t j) {
    return mask != nullptr && sparseMode < 2 && attentionMasked(*mask, b, n, i, j);
  };
  const bool lowPrecision = Q.dtype != ACL_FLOAT;
  for (int64_t b = 0; b < q.B; ++b) {
    for (int64_t kn = 0; kn < k.N; ++kn) {
      for (int64_t j = 0; j < S2; ++j) {
        loadRow(K.dtype, K.data + (b * k.sb + j * k.ss + kn * k.sn) * kEs, k.sd * kEs, D, row.data());
        for (int64_t d = 0; d < D; ++d) kt[static_cast<size_t>(d * S2 + j)] = row[static_cast<size_t>(d)];
        loadRow(V.dtype, V.data + (b * v.sb + j * v.ss + kn * v.sn) * kEs, v.sd * kEs, Dv,
                vm.data() + j * Dv);
      }
      for (int64_t n = kn * group; n < (kn + 1) * group; ++n) {
        for (int64_t i = 0; i < S1; ++i)
          loadRow(Q.dtype, Q.data + (b * q.sb + i * q.ss + n * q.sn) * qEs, q.sd * qEs, D, qm.data() + i * D);
        gemmF32(S1, S2, D, qm.data(), D, kt.data(), S2, s.data(), S2);
        for (int64_t i = 0; i < S1; ++i) {
          float* p = s.data() + i * S2;
          int64_t lo = 0, hi = 0;
          visible(i, &lo, &hi);
          float m = -std::numeric_limits<float>::infinity();
          for (int64_t j = 0; j < S2; ++j) {
            if (j < lo || j >= hi || masked(b, n, i, j)) {
              p[j] = -std::numeric_limits<float>::infinity();
            } else {
              p[j] = static_cast<float>(p[j] * scale);
              m = std::max(m, p[j]);
            }
          }
          float sum = 0;
          for (int64_t j = 0; j < S2; ++j) {
            p[j] = std::isinf(m) ? 0.0f : std::exp(p[j] - m);
            sum += p[j];
          }
          const float inv = sum > 0 ? 1.0f / sum : 0.0f;
          for (int64_t j = 0; j < S2; ++j) p[j] *= inv;
          if (lowPrecision) quantizeRow(Q.dtype, p, S2);
          mx[static_cast<size_t>(i)] = std::isinf(m) ? 0.0f : m;
          sm[static_cast<size_t>(i)] = sum;
        }
        gemmF32(S1, Dv, S2, s.data(), S2, vm.data(), Dv, ob.data(), Dv);
        for (int64_t i = 0; i < S1; ++i) {
          storeRow(O.dtype, O.data + (b * o.sb + i * o.ss + n * o.sn) * oEs, o.sd * oEs, Dv,
                   ob.data() + i * Dv);
          for (int which = 0; which < (out.size() == 3 ? 2 : 0); ++which) {
            const HostTensor& t = out[static_cast<size_t>(which)];
            const float val = which == 0 ? mx[static_cast<size_t>(i)] : sm[static_cast<size_t>(i)];
            char* base = t.data + (b * t.strides[0] + n * t.strides[1] + i * t.strides[2]) * 4;
            for (int64_t e = 0; e < 8; ++e) std::memcpy(base + e * t.strides[3] * 4, &val, 4);
          }
        }
      }
    }
  }
}

}  // namespace

bool attentionMasked(const HostTensor& mask, int64_t b, int64_t n, int64_t i, int64_t j) {
  const size_t r = mask.shape.size();
  int64_t off = i * (mask.shape[r - 2] == 1 ? 0 : mask.strides[r - 2]) +
                j * (mask.shape[r - 1] == 1 ? 0 : mask.strides[r - 1]);
  if (r == 4)
    off += (mask.shape[0] == 1 ? 0 : b * mask.strides[0]) + (mask.shape[1] == 1 ? 0 : n * mask.strides[1]);
  return mask.data[off * static_cast<int64_t>(dtypeSize(mask.dtype))] != 0;
}

int32_t buildFlashAttention(const FlashAttentionApi& a, const aclTensor* query, const aclTensor* key,
                            const aclTensor* value, const aclTensor* realShift, const aclTensor* dropMask,
                            const aclTensor* paddingMask, const aclTensor* attenMask,
                            const aclIntArray* prefix, double scaleValue, double keepProb, int64_t preTokens,
                            int64_t nextTokens, int64_t headNum, const char* inputLayout, int64_t sparseMode,
                            const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
                            const aclTensor* attentionOut, uint64_t* workspaceSize,
                            aclOpExecutor** executor) {
  const char* api = a.api;
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"query", query},
                                  {"key", key},
                                  {"value", value},
                                  {"inputLayout", inputLayout},
                                  {a.outName, attentionOut}});
  if (st != kSuccess) return st;
  if (a.statsRequired && (st = checkNotNull(api, {{"softmaxMaxOut", softmaxMaxOut},
                                                  {"softmaxSumOut", softmaxSumOut}})) != kSuccess)
    return st;
  const bool stats = softmaxMaxOut != nullptr && softmaxSumOut != nullptr;
  for (auto [name, t] :
       {std::pair{"query", query}, {"key", key}, {"value", value}, {a.outName, attentionOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
    if (t->desc.dtype != query->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} differs from query type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(query->desc.dtype)));
    }
  }
  (void)prefix;  // only read by the prefix sparse modes (5, 6), which are refused below
  if (realShift != nullptr || dropMask != nullptr || paddingMask != nullptr || keepProb != 1.0) {
    return fail(api, kErrParamInvalid,
                "pse (realShift), dropout (dropMask, keepProb != 1) and paddingMask are not simulated");
  }
  if (sparseMode < 0 || sparseMode > 3) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("sparseMode {} is not simulated (0: mask and band, 1: mask, 2/3: causal)", sparseMode));
  }
  const std::string layout(inputLayout);
  auto inst = std::make_unique<FlashAttentionInstance>();
  if (headNum <= 0 || !axesOf(query->desc, layout, headNum, &inst->q)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("query shape {} does not fit layout {} with headNum {} (layouts: BSH, SBH, BSND, BNSD)",
                    shapeString(query->desc.shape), layout, headNum));
  }
  Axes& q = inst->q;
  // Key/value head count: from the shape in BSND/BNSD, from H / D in BSH/SBH.
  int64_t kvHeads = headNum;
  if (layout == "BSH" || layout == "SBH") {
    kvHeads = key->desc.rank() == 3 && q.D > 0 ? key->desc.shape[2] / q.D : 0;
  }
  if (kvHeads <= 0 || !axesOf(key->desc, layout, kvHeads, &inst->k) ||
      !axesOf(value->desc, layout, kvHeads, &inst->v) ||
      !axesOf(attentionOut->desc, layout, headNum, &inst->o)) {
    return fail(api, kErrParamInvalid,
                fmt::format("key {} / value {} / attentionOut {} do not fit layout {} with query {}",
                            shapeString(key->desc.shape), shapeString(value->desc.shape),
                            shapeString(attentionOut->desc.shape), layout, shapeString(query->desc.shape)));
  }
  const Axes &k = inst->k, &v = inst->v;
  if (k.B != q.B || v.B != q.B || k.S != v.S || k.N != v.N || k.D != q.D || v.D > k.D || q.N % k.N != 0 ||
      attentionOut->desc.shape != query->desc.shape) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("shapes do not agree: query {}, key {}, value {}, attentionOut {} (equal B, key/value "
                    "equal but for D, qD == kD >= vD, headNum a multiple of the key heads, out = query)",
                    shapeString(query->desc.shape), shapeString(key->desc.shape),
                    shapeString(value->desc.shape), shapeString(attentionOut->desc.shape)));
  }
  if (v.D != q.D) {
    return fail(api, kErrParamInvalid, "value head dimension different from query's is not simulated");
  }
  const std::vector<int64_t> statShape{q.B, q.N, q.S, 8};
  for (auto [name, t] : {std::pair{"softmaxMaxOut", softmaxMaxOut}, {"softmaxSumOut", softmaxSumOut}}) {
    if (!stats) break;
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != ACL_FLOAT) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type must be fp32, but is {}", name, dtypeName(t->desc.dtype)));
    }
    if ((st = checkShape(api, name, t->desc.shape, statShape)) != kSuccess) return st;
  }
  if (attenMask != nullptr) {
    if ((st = checkTensor(api, "attenMaskOptional", attenMask->desc)) != kSuccess) return st;
    const auto& ms = attenMask->desc.shape;
    const bool typeOk = attenMask->desc.dtype == ACL_BOOL || attenMask->desc.dtype == ACL_UINT8 ||
                        (a.int8Mask && attenMask->desc.dtype == ACL_INT8);
    bool shapeOk = (ms.size() == 2 || ms.size() == 4);
    if (shapeOk && sparseMode < 2) {
      shapeOk = ms[ms.size() - 2] == q.S && ms[ms.size() - 1] == k.S &&
                (ms.size() == 2 || ((ms[0] == 1 || ms[0] == q.B) && (ms[1] == 1 || ms[1] == q.N)));
    }
    if (!typeOk || !shapeOk) {
      return fail(api, kErrParamInvalid,
                  fmt::format("attenMaskOptional {} must be bool or uint8 (int8 too for IncreFlashAttention) "
                              "of shape [S1,S2], [1,1,S1,S2], [B,1,S1,S2] "
                              "or [B,N,S1,S2] (S1 = {}, S2 = {})",
                              attenMask->desc.brief(), q.S, k.S));
    }
  } else if (sparseMode == 1) {
    return fail(api, kErrParamInvalid, "sparseMode 1 (allMask) needs attenMaskOptional");
  }
  inst->name = a.opName;
  inst->scale = scaleValue;
  inst->preTokens = preTokens;
  inst->nextTokens = nextTokens;
  inst->sparseMode = sparseMode;
  addInput(*inst, "query", query);
  addInput(*inst, "key", key);
  addInput(*inst, "value", value);
  if (attenMask != nullptr) {
    addInput(*inst, "attenMask", attenMask);
    inst->hasMask = true;
  }
  if (stats) {
    addOutput(*inst, "softmaxMaxOut", softmaxMaxOut);
    addOutput(*inst, "softmaxSumOut", softmaxSumOut);
  }
  addOutput(*inst, a.outName, attentionOut);
  inst->attrs = fmt::format("layout={}, headNum={}, scale={:.6g}, sparseMode={}, preTokens={}, nextTokens={}",
                            layout, headNum, scaleValue, sparseMode, preTokens, nextTokens);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

int32_t checkKeyValueHeads(const char* api, int64_t numHeads, int64_t numKeyValueHeads, const aclTensor* key,
                           const char* inputLayout) {
  if (numKeyValueHeads < 0 || (numKeyValueHeads > 0 && (numHeads <= 0 || numHeads % numKeyValueHeads != 0))) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("numKeyValueHeads {} must be 0 or divide numHeads {}", numKeyValueHeads, numHeads));
  }
  if (numKeyValueHeads == 0 || key == nullptr || inputLayout == nullptr) return kSuccess;
  const std::string layout(inputLayout);
  const auto& ks = key->desc.shape;
  const int64_t fromShape = layout == "BNSD" && ks.size() == 4   ? ks[1]
                            : layout == "BSND" && ks.size() == 4 ? ks[2]
                                                                 : -1;
  if (fromShape >= 0 && fromShape != numKeyValueHeads) {
    return fail(api, kErrParamInvalid,
                fmt::format("numKeyValueHeads {} differs from key's {} heads", numKeyValueHeads, fromShape));
  }
  return kSuccess;
}

}  // namespace npusim::aclnn

namespace {
const npusim::aclnn::FlashAttentionApi kFasApi{"aclnnFlashAttentionScoreGetWorkspaceSize",
                                               "aclnnFlashAttentionScore", "attentionOutOut", true};
const npusim::aclnn::FlashAttentionApi kFasV2Api{"aclnnFlashAttentionScoreV2GetWorkspaceSize",
                                                 "aclnnFlashAttentionScore", "attentionOutOut", true};
}  // namespace

extern "C" aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* prefixOptional, double scaleValue, double keepProb,
    int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
    const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  (void)innerPrecise;   // precision hint of the device kernel; the simulation computes as documented above
  (void)softmaxOutOut;  // reserved output, not written by the device either
  return npusim::aclnn::buildFlashAttention(
      kFasApi, query, key, value, realShiftOptional, dropMaskOptional, paddingMaskOptional, attenMaskOptional,
      prefixOptional, scaleValue, keepProb, preTokens, nextTokens, headNum, inputLayout, sparseMode,
      softmaxMaxOut, softmaxSumOut, attentionOutOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionScore)

extern "C" aclnnStatus aclnnFlashAttentionScoreV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* prefixOptional,
    const aclIntArray* qStartIdxOptional, const aclIntArray* kvStartIdxOptional, double scaleValue,
    double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout,
    int64_t innerPrecise, int64_t sparseMode, int64_t pseType, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  // qStartIdx/kvStartIdx and pseType only shape the pse, which is not simulated.
  (void)qStartIdxOptional;
  (void)kvStartIdxOptional;
  (void)pseType;
  (void)innerPrecise;
  (void)softmaxOutOut;
  return npusim::aclnn::buildFlashAttention(
      kFasV2Api, query, key, value, realShiftOptional, dropMaskOptional, paddingMaskOptional,
      attenMaskOptional, prefixOptional, scaleValue, keepProb, preTokens, nextTokens, headNum, inputLayout,
      sparseMode, softmaxMaxOut, softmaxSumOut, attentionOutOut, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(FlashAttentionScoreV2)
