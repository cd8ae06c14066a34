// aclnnDequantRopeQuantKvcache (ops-transformer posembedding/dequant_rope_quant_kvcache): per
// token of x [B, S, H] (layout BSND), in the order of its kernel (op_kernel/*.h):
//  1. int32 x only: d = float(x + int32 bias) · weightScale[col] · activationScale[token]
//     (+ a floating bias), rounded to the type of cos (qOut's); fp16/bf16 x is taken as it is.
//  2. split along H by sizeSplits = {Nq·D, Nkv·D, Nkv·D} into q, k, v heads of D = cos.shape[-1].
//  3. q and k rotate by rotate-half RoPE with the token's cos/sin row:
//     o[i] = x[i]·cos[i] − x[i + D/2]·sin[i], o[i + D/2] = x[i + D/2]·cos[i + D/2] + x[i]·sin[i + D/2]
//     (fp32, rounded to the output type), written to qOut (and kOut, vOut when kvOutput).
//  4. k and v quantise statically: int8(rint(kOut / scaleK + offsetK)), saturated (scales and
//     offsets per channel of one head, or of all kv heads), and go to the caches: "contiguous"
//     writes token s of batch b at kCacheRef[b][indices[b] + s]; "page" views the cache as rows
//     of [Nkv, D] and writes token t at row indices[t] (indices [B·S]; with [B], the batch's
//     tokens at consecutive rows from indices[b]); a negative page index skips the token.
// A row outside the cache is an execution error and the token is skipped. Cost: the inputs read
// once, qOut (kOut, vOut) and the int8 cache rows written once, 10 vector passes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_dequant_rope_quant_kvcache.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The README: x FLOAT16, BFLOAT16, INT32; cos, sin and the outputs FLOAT16, BFLOAT16; caches
// INT8; indices INT32; scales, offsets, weight and activation scales FLOAT; bias FLOAT,
// FLOAT16, BFLOAT16, INT32.
const OpInfo kInfo{"aclnnDequantRopeQuantKvcache",
                   ExecUnit::kVector,
                   {ACL_FLOAT16, ACL_BF16, ACL_INT32},
                   "q, k = rope(split(dequant(x))); caches[indices] = quant(k), quant(v)"};
const OpRegistrar kRegistrar(kInfo);

enum Input {
  kX,
  kCos,
  kSin,
  kIndices,
  kScaleK,
  kScaleV,
  kOffsetK,
  kOffsetV,
  kWeight,
  kActivation,
  kBias,
  kInputs
};

// Inputs in Input order (absent optional ones skipped), then kCacheRef and vCacheRef (aliased by
// the last two outputs); outputs qOut, kOut, vOut, kCacheRef, vCacheRef.
class DequantRopeQuantKvcacheInstance : public OpInstanceBase<DequantRopeQuantKvcacheInstance> {
 public:
  int slot[kInputs] = {};
  int64_t batch = 0, seq = 0, nq = 0, nkv = 0, d = 0;
  bool kvOutput = false, paged = false;

  rt::OpWork work() const override {
    const std::vector<TensorDesc> read(inputs.begin(), inputs.end() - 2);
    VectorPass pass{&read, &outputs[0], inputs[0].numel(), 10};
    for (size_t o = kvOutput ? 1 : 3; o < 3; ++o)
      pass.extraWriteBytes += static_cast<uint64_t>(outputs[o].numel()) * outputs[o].elementSize();
    pass.extraWriteBytes += static_cast<uint64_t>(2 * batch * seq * nkv * d);  // the int8 cache rows
    return vectorTiles(pass);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    auto load = [&](Input k) {
      return slot[k] >= 0 ? loadDense<float>(in[static_cast<size_t>(slot[k])]) : std::vector<float>();
    };
    const std::vector<float> x = load(kX), cos = load(kCos), sin = load(kSin), sk = load(kScaleK),
                             sv = load(kScaleV), ok = load(kOffsetK), ov = load(kOffsetV), ws = load(kWeight),
                             as = load(kActivation), bias = load(kBias);
    const std::vector<int64_t> indices = loadDense<int64_t>(in[static_cast<size_t>(slot[kIndices])]);
    const aclDataType xt = in[kX].dtype, ot = out[0].dtype;
    const bool intBias = slot[kBias] >= 0 && in[static_cast<size_t>(slot[kBias])].dtype == ACL_INT32;
    const int64_t tokens = batch * seq, h = (nq + 2 * nkv) * d, half = d / 2;
    // 1. dequant, rounded to the output type.
    std::vector<float> y(x.size());
    for (int64_t t = 0; t < tokens; ++t) {
      for (int64_t c = 0; c < h; ++c) {
        const size_t i = static_cast<size_t>(t * h + c);
        float v = x[i];
        if (xt == ACL_INT32) {
          if (intBias) v = static_cast<float>(static_cast<int64_t>(x[i]) + static_cast<int64_t>(bias[c]));
          v *= ws[static_cast<size_t>(c)];
          if (!as.empty()) v *= as[static_cast<size_t>(t)];
          if (!bias.empty() && !intBias) v += bias[static_cast<size_t>(c)];
        }
        y[i] = v;
      }
    }
    quantizeDense(ot, y);
    // 2-3. rope of the q and k heads; v passes.
    std::vector<float> q(static_cast<size_t>(tokens * nq * d)), k(static_cast<size_t>(tokens * nkv * d)),
        v(static_cast<size_t>(tokens * nkv * d));
    for (int64_t t = 0; t < tokens; ++t) {
      const float* row = y.data() + t * h;
      const float* c = cos.data() + t * d;
      const float* s = sin.data() + t * d;
      auto rope = [&](const float* src, float* dst) {
        for (int64_t i = 0; i < half; ++i) {
          dst[i] = src[i] * c[i] - src[i + half] * s[i];
          dst[i + half] = src[i + half] * c[i + half] + src[i] * s[i + half];
        }
      };
      for (int64_t n = 0; n < nq; ++n) rope(row + n * d, q.data() + (t * nq + n) * d);
      for (int64_t n = 0; n < nkv; ++n) {
        rope(row + (nq + n) * d, k.data() + (t * nkv + n) * d);
        std::copy_n(row + (nq + nkv + n) * d, d, v.data() + (t * nkv + n) * d);
      }
    }
    quantizeDense(ot, q);
    quantizeDense(ot, k);
    storeDense(out[0], q.data());
    if (kvOutput) {
      storeDense(out[1], k.data());
      storeDense(out[2], v.data());
    }
    // 4. static quant into the caches.
    std::vector<int64_t> kc = loadDense<int64_t>(out[3]), vc = loadDense<int64_t>(out[4]);
    const int64_t rowLen = nkv * d, cacheRows = static_cast<int64_t>(kc.size()) / rowLen;
    const int64_t cacheSeq = out[3].shape.size() >= 2 ? out[3].shape[1] : cacheRows;
    auto quant = [](float val, const std::vector<float>& sc, const std::vector<float>& off, int64_t ch) {
      const size_t j = static_cast<size_t>(ch % static_cast<int64_t>(sc.size()));
      const float r = std::rint(val / sc[j] + (off.empty() ? 0.f : off[j % off.size()]));
      return std::isnan(r) ? int64_t{0} : static_cast<int64_t>(std::clamp(r, -128.f, 127.f));
    };
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t s = 0; s < seq; ++s) {
        const int64_t t = b * seq + s;
        int64_t row;
        if (paged) {
          const bool perToken = static_cast<int64_t>(indices.size()) == tokens;
          const int64_t base = indices[static_cast<size_t>(perToken ? t : b)];
          if (base < 0) continue;
          row = perToken ? base : base + s;
        } else {
          const int64_t pos = indices[static_cast<size_t>(b)] + s;
          row = pos >= 0 && pos < cacheSeq ? b * cacheSeq + pos : -1;
        }
        if (row < 0 || row >= cacheRows) {
          reportExecutionError(name.c_str(),
                               fmt::format("token {} of batch {} maps to cache row {} outside the "
                                           "cache's {}",
                                           s, b, row, cacheRows));
          continue;
        }
        for (int64_t ch = 0; ch < rowLen; ++ch) {
          const size_t src = static_cast<size_t>(t * rowLen + ch),
                       dst = static_cast<size_t>(row * rowLen + ch);
          kc[dst] = quant(k[src], sk, ok, ch);
          vc[dst] = quant(v[src], sv, ov, ch);
        }
      }
    }
    storeDense(out[3], kc.data());
    storeDense(out[4], vc.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
    const aclTensor* x, const aclTensor* cos, const aclTensor* sin, aclTensor* kCacheRef,
    aclTensor* vCacheRef, const aclTensor* indices, const aclTensor* scaleK, const aclTensor* scaleV,
    const aclTensor* offsetKOptional, const aclTensor* offsetVOptional, const aclTensor* weightScaleOptional,
    const aclTensor* activationScaleOptional, const aclTensor* biasOptional, const aclIntArray* sizeSplits,
    char* quantModeOptional, char* layoutOptional, bool kvOutput, char* cacheModeOptional,
    const aclTensor* qOut, const aclTensor* kOut, const aclTensor* vOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnDequantRopeQuantKvcacheGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x},
                                  {"cos", cos},
                                  {"sin", sin},
                                  {"kCacheRef", kCacheRef},
                                  {"vCacheRef", vCacheRef},
                                  {"indices", indices},
                                  {"scaleK", scaleK},
                                  {"scaleV", scaleV},
                                  {"sizeSplits", sizeSplits},
                                  {"qOut", qOut},
                                  {"kOut", kOut},
                                  {"vOut", vOut}});
  if (st != kSuccess) return st;
  const aclTensor* all[kInputs] = {x,
                                   cos,
                                   sin,
                                   indices,
                                   scaleK,
                                   scaleV,
                                   offsetKOptional,
                                   offsetVOptional,
                                   weightScaleOptional,
                                   activationScaleOptional,
                                   biasOptional};
  const char* names[kInputs] = {"x",
                                "cos",
                                "sin",
                                "indices",
                                "scaleK",
                                "scaleV",
                                "offsetKOptional",
                                "offsetVOptional",
                                "weightScaleOptional",
                                "activationScaleOptional",
                                "biasOptional"};
  for (int k = 0; k < kInputs; ++k) {
    if (all[k] != nullptr && (st = checkTensor(api, names[k], all[k]->desc)) != kSuccess) return st;
  }
  for (auto [name, t] : {std::pair{"kCacheRef", static_cast<const aclTensor*>(kCacheRef)},
                         {"vCacheRef", vCacheRef},
                         {"qOut", qOut},
                         {"kOut", kOut},
                         {"vOut", vOut}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, "x", x->desc.dtype, kInfo)) != kSuccess) return st;
  const aclDataType ct = cos->desc.dtype;
  auto bad = [&](const std::string& why) { return fail(api, kErrParamInvalid, why); };
  if (ct != ACL_FLOAT16 && ct != ACL_BF16)
    return bad(fmt::format("cos type {} must be fp16 or bf16", dtypeName(ct)));
  for (auto [name, t] : {std::pair{"sin", sin}, {"qOut", qOut}, {"kOut", kOut}, {"vOut", vOut}}) {
    if (t->desc.dtype != ct)
      return bad(
          fmt::format("{} type {} must equal cos type {}", name, dtypeName(t->desc.dtype), dtypeName(ct)));
  }
  if (x->desc.dtype != ACL_INT32 && x->desc.dtype != ct)
    return bad(
        fmt::format("x type {} must be int32 or cos type {}", dtypeName(x->desc.dtype), dtypeName(ct)));
  if (kCacheRef->desc.dtype != ACL_INT8 || vCacheRef->desc.dtype != ACL_INT8)
    return bad("kCacheRef and vCacheRef must be int8");
  if (indices->desc.dtype != ACL_INT32)
    return bad(fmt::format("indices type {} must be int32", dtypeName(indices->desc.dtype)));
  for (int k : {kScaleK, kScaleV, kOffsetK, kOffsetV, kWeight, kActivation}) {
    if (all[k] != nullptr && all[k]->desc.dtype != ACL_FLOAT)
      return bad(fmt::format("{} type {} must be fp32", names[k], dtypeName(all[k]->desc.dtype)));
  }
  if (biasOptional != nullptr && biasOptional->desc.dtype != ACL_FLOAT &&
      biasOptional->desc.dtype != ACL_FLOAT16 && biasOptional->desc.dtype != ACL_BF16 &&
      biasOptional->desc.dtype != ACL_INT32)
    return bad(fmt::format("biasOptional type {} is not supported", dtypeName(biasOptional->desc.dtype)));
  if (x->desc.dtype == ACL_INT32 && weightScaleOptional == nullptr)
    return fail(api, kErrParamNullptr, "weightScaleOptional is required when x is int32");
  for (auto [name, value, want] :
       {std::tuple{"quantMode", quantModeOptional, "static"}, {"layout", layoutOptional, "BSND"}}) {
    if (value != nullptr && std::string(value) != want)
      return bad(fmt::format("{} '{}' is not supported (only \"{}\")", name, value, want));
  }
  const std::string cacheMode = cacheModeOptional == nullptr ? "contiguous" : cacheModeOptional;
  if (cacheMode != "contiguous" && cacheMode != "page")
    return bad(fmt::format("cacheMode '{}' must be \"contiguous\" or \"page\"", cacheMode));
  // Shapes: x [B, S, H], cos/sin one row of D per token, H = (Nq + 2 Nkv) · D.
  const TensorDesc& xd = x->desc;
  if (xd.rank() != 3) return bad(fmt::format("x {} must be [B, S, H] (layout BSND)", shapeString(xd.shape)));
  const int64_t b = xd.shape[0], s = xd.shape[1], h = xd.shape[2],
                d = cos->desc.shape.empty() ? 0 : cos->desc.shape.back();
  const std::vector<int64_t>& sp = sizeSplits->values;
  if (d <= 0 || d % 2 != 0 || sp.size() != 3 || sp[1] != sp[2] || sp[0] <= 0 || sp[1] <= 0 ||
      sp[0] % d != 0 || sp[1] % d != 0 || sp[0] + 2 * sp[1] != h)
    return bad(
        fmt::format("sizeSplits must be {{Nq·D, Nkv·D, Nkv·D}} summing to x's last dimension {} with D = "
                    "cos's last dimension {} (even)",
                    h, d));
  const int64_t nq = sp[0] / d, nkv = sp[1] / d, tokens = b * s;
  if (cos->desc.numel() != tokens * d || sin->desc.shape != cos->desc.shape)
    return bad(fmt::format("cos {} and sin {} must hold one row of {} per token",
                           shapeString(cos->desc.shape), shapeString(sin->desc.shape), d));
  const std::vector<std::pair<const aclTensor*, int64_t>> outs = {{qOut, nq}, {kOut, nkv}, {vOut, nkv}};
  for (auto [t, heads] : outs) {
    if (t->desc.numel() != tokens * heads * d)
      return bad(
          fmt::format("output {} must be [B {}, S {}, {}, {}]", shapeString(t->desc.shape), b, s, heads, d));
  }
  for (auto [name, t] :
       {std::pair{"kCacheRef", static_cast<const aclTensor*>(kCacheRef)}, {"vCacheRef", vCacheRef}}) {
    const TensorDesc& c = t->desc;
    if (c.rank() != 4 || c.shape[2] != nkv || c.shape[3] != d ||
        (cacheMode == "contiguous" && c.shape[0] < b))
      return bad(fmt::format("{} {} must be [B' (>= B {} when contiguous), S', {}, {}]", name,
                             shapeString(c.shape), b, nkv, d));
  }
  if (kCacheRef->desc.shape != vCacheRef->desc.shape)
    return bad("kCacheRef and vCacheRef must have one shape");
  const int64_t idxN = indices->desc.numel();
  if (indices->desc.rank() != 1 || (idxN != b && !(cacheMode == "page" && idxN == tokens)))
    return bad(fmt::format("indices {} must be [B {}] (or [B·S {}] for page)",
                           shapeString(indices->desc.shape), b, tokens));
  for (int k : {kScaleK, kScaleV, kOffsetK, kOffsetV}) {
    if (all[k] != nullptr && all[k]->desc.numel() != d && all[k]->desc.numel() != nkv * d)
      return bad(fmt::format("{} {} must hold {} or {} values", names[k], shapeString(all[k]->desc.shape), d,
                             nkv * d));
  }
  if (weightScaleOptional != nullptr && weightScaleOptional->desc.numel() != h)
    return bad(fmt::format("weightScaleOptional must hold {} values", h));
  if (biasOptional != nullptr && biasOptional->desc.numel() != h)
    return bad(fmt::format("biasOptional must hold {} values", h));
  if (activationScaleOptional != nullptr && activationScaleOptional->desc.numel() != tokens)
    return bad(fmt::format("activationScaleOptional must hold one value per token ({})", tokens));

  auto inst = std::make_unique<DequantRopeQuantKvcacheInstance>();
  inst->name = kInfo.name;
  inst->batch = b;
  inst->seq = s;
  inst->nq = nq;
  inst->nkv = nkv;
  inst->d = d;
  inst->kvOutput = kvOutput;
  inst->paged = cacheMode == "page";
  for (int k = 0; k < kInputs; ++k) {
    inst->slot[k] = -1;
    if (all[k] == nullptr) continue;
    inst->slot[k] = static_cast<int>(inst->inputs.size());
    addInput(*inst, names[k], all[k]);
  }
  const int kCacheIn = static_cast<int>(inst->inputs.size());
  addInput(*inst, "kCacheRef", kCacheRef);
  addInput(*inst, "vCacheRef", vCacheRef);
  addOutput(*inst, "qOut", qOut);
  addOutput(*inst, "kOut", kOut);
  addOutput(*inst, "vOut", vOut);
  addOutput(*inst, "kCacheRef", kCacheRef, kCacheIn);
  addOutput(*inst, "vCacheRef", vCacheRef, kCacheIn + 1);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(DequantRopeQuantKvcache)
