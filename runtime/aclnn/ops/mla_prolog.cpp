// aclnnMlaProlog and aclnnMlaPrologV2WeightNz (ops-transformer attention/mla_prolog
// docs/aclnnMlaProlog.md, mla_prolog_v2 docs/aclnnMlaPrologV2WeightNz.md and the design note
// MlaProlog算子设计介绍.md): the query and key/value preparation of multi-head latent
// attention, bf16, for the T = B·S tokens of x [T or B,S, He]:
//   cQ  = RmsNorm(x · Wdq, gammaCq, epsCq)                      [T, Hcq]
//   qcqr = cQ · WuqQr, per head n: qC_n = columns n·(D+Dr) .. +D, qR_n = the next Dr
//   queryOut[t, n]     = qC_n · Wuk[n]                          [T, N, Hckv]
//   queryRopeOut[t, n] = Rope(qR_n)                             [T, N, Dr]
//   ckvkr = x · WdkvKr: cKV = RmsNorm(first Hckv columns, gammaCkv, epsCkv), kR = Rope(last Dr)
//   kvCache[cacheIndex[t]] = cKV[t], krCache[cacheIndex[t]] = kR[t]   (PA_BSND: the caches'
//   [BlockNum · BlockSize] rows; a negative index writes nothing, as the kernel's scatter)
// RmsNorm(v) = gamma · v / sqrt(mean(v²) + eps). Rope is the design note's formula (15): with
// h = Dr / 2, out[j] = v[2j]·cos[j] − v[2j+1]·sin[j], out[h + j] = v[2j+1]·cos[h + j] + v[2j]·sin[h + j].
// Wdq [He, Hcq], WuqQr [Hcq, N·(D+Dr)], WdkvKr [He, Hckv+Dr] in FRACTAL_NZ (the [K, N] view or the
// fractal view [N / 16, K / 16, 16, 16]); Wuk [N, D, Hckv] ND. The docs' fixed sizes are checked:
// He 7168 or 7680, Hcq 1536, Hckv 512, D 128, Dr 64, N a power of two up to 128, Nkv 1,
// BlockSize 16 or 128.
// Numerics: fp32 products and accumulation, each matmul's result, norm and rope rounded to bf16.
// Not supported (161002, named): the quantised forms (int8 weightUqQr or caches, dequant/quant/
// smooth scales, V2's dequantScaleQNopeOut) and cacheMode "PA_NZ".
// Cost: five matmuls on the grouped-matmul cube work (x by Wdq and by WdkvKr, cQ by WuqQr, the N
// heads by Wuk), the two norms and two ropes as vector passes over their operands, the cache rows
// written.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_mla_prolog.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/grouped_matmul_work.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {
namespace {

constexpr const char* kMath =
    "query = RmsNorm(x·Wdq)·WuqQr·Wuk, rope parts, RmsNorm(x·Wdkv) and rope(x·Wkr) to the caches";
const OpRegistrar kV1({"aclnnMlaProlog", ExecUnit::kCube, {ACL_BF16, ACL_INT64}, kMath});
const OpRegistrar kV2({"aclnnMlaPrologV2WeightNz", ExecUnit::kCube, {ACL_BF16, ACL_INT64}, kMath});

// Input order of the instance.
enum Input { kX, kWdq, kWuqQr, kWuk, kWdkvKr, kGammaCq, kGammaCkv, kSin, kCos, kIndex };
enum Output { kQuery, kQueryRope, kKvCache, kKrCache };

struct Dims {
  int64_t T = 0, He = 0, Hcq = 0, N = 0, D = 0, Dr = 0, Hckv = 0, cacheRows = 0;
};

class MlaPrologInstance : public OpInstanceBase<MlaPrologInstance> {
 public:
  Dims d;
  NzLayout nzDq, nzUqQr, nzDkvKr;
  double epsCq = 1e-5, epsCkv = 1e-5;

  rt::OpWork work() const override {
    // The intermediates (cQ, qcqr, ckvkr) are the kernel's workspace: charged at queryOut.
    TensorDesc act = outputs[kQuery];
    auto mm = [&](int64_t M, int64_t K, int64_t N, int64_t E, const TensorDesc& a, const TensorDesc& w) {
      GroupedMatmulCost c;
      c.M = M, c.K = K, c.N = N, c.E = E;
      c.x = &a, c.weight = &w, c.y = &act;
      return groupedMatmulWork(c);
    };
    const int64_t qkWidth = d.N * (d.D + d.Dr);
    rt::OpWork all = mm(d.T, d.He, d.Hcq, 1, inputs[kX], inputs[kWdq]);
    for (auto& t : all.tiles) t.vectorBytes += 2 * t.writeBytes;  // RmsNorm: squares and scaling
    rt::OpWork kv = mm(d.T, d.He, d.Hckv + d.Dr, 1, inputs[kX], inputs[kWdkvKr]);
    for (auto& t : kv.tiles) t.vectorBytes += 3 * t.writeBytes;  // RmsNorm and rope
    const rt::OpWork q = mm(d.T, d.Hcq, qkWidth, 1, act, inputs[kWuqQr]);
    const rt::OpWork qn = mm(d.T * d.N, d.D, d.Hckv, d.N, act, inputs[kWuk]);
    for (const rt::OpWork* w : {static_cast<const rt::OpWork*>(&kv), &q, &qn})
      all.tiles.insert(all.tiles.end(), w->tiles.begin(), w->tiles.end());
    // Rope of the query heads, the cache rows, gammas, sin/cos and the index.
    uint64_t side = 0, rows = static_cast<uint64_t>(d.T * (d.Hckv + d.Dr)) * 2;
    for (int i : {kGammaCq, kGammaCkv, kSin, kCos, kIndex})
      side += static_cast<uint64_t>(inputs[static_cast<size_t>(i)].numel()) *
              inputs[static_cast<size_t>(i)].elementSize();
    const uint64_t ropeQ = static_cast<uint64_t>(d.T * d.N * d.Dr) * 2;
    for (size_t i = 0; i < all.tiles.size(); ++i) {
      all.tiles[i].readBytes += shareOf(side, i, all.tiles.size());
      all.tiles[i].writeBytes += shareOf(rows + ropeQ, i, all.tiles.size());
      all.tiles[i].vectorBytes += shareOf(2 * ropeQ, i, all.tiles.size());
    }
    return all;
  }

  // A [K, N] NZ weight as dense floats.
  static std::vector<float> denseWeight(const HostTensor& t, const NzLayout& l) {
    std::vector<char> bytes(static_cast<size_t>(l.rows * l.cols) * 2);
    nzToDense(l, 2, t.data, bytes.data());
    std::vector<float> w(static_cast<size_t>(l.rows * l.cols));
    loadRow(ACL_BF16, bytes.data(), 2, l.rows * l.cols, w.data());
    return w;
  }

  static void rmsNorm(float* v, int64_t n, const std::vector<float>& gamma, double eps) {
    double sq = 0;
    for (int64_t i = 0; i < n; ++i) sq += static_cast<double>(v[i]) * v[i];
    const auto r = static_cast<float>(1.0 / std::sqrt(sq / static_cast<double>(n) + eps));
    for (int64_t i = 0; i < n; ++i) v[i] = v[i] * r * gamma[static_cast<size_t>(i)];
    quantizeRow(ACL_BF16, v, n);
  }

  void rope(const float* v, const float* cos, const float* sin, float* out) const {
    const int64_t h = d.Dr / 2;
    for (int64_t j = 0; j < h; ++j) {
      out[j] = v[2 * j] * cos[j] - v[2 * j + 1] * sin[j];
      out[h + j] = v[2 * j + 1] * cos[h + j] + v[2 * j] * sin[h + j];
    }
    quantizeRow(ACL_BF16, out, d.Dr);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (d.T == 0) return;
    const std::vector<float> x = loadDense<float>(in[kX]), wuk = loadDense<float>(in[kWuk]),
                             gCq = loadDense<float>(in[kGammaCq]), gCkv = loadDense<float>(in[kGammaCkv]),
                             sin = loadDense<float>(in[kSin]), cos = loadDense<float>(in[kCos]);
    const std::vector<int64_t> index = loadDense<int64_t>(in[kIndex]);
    const int64_t T = d.T, qkWidth = d.N * (d.D + d.Dr), kvWidth = d.Hckv + d.Dr;
    std::vector<float> cq(static_cast<size_t>(T * d.Hcq)), qcqr(static_cast<size_t>(T * qkWidth)),
        ckvkr(static_cast<size_t>(T * kvWidth));
    {
      const std::vector<float> wdq = denseWeight(in[kWdq], nzDq);
      gemmF32(T, d.Hcq, d.He, x.data(), d.He, wdq.data(), d.Hcq, cq.data(), d.Hcq);
      quantizeRow(ACL_BF16, cq.data(), T * d.Hcq);
      for (int64_t t = 0; t < T; ++t) rmsNorm(cq.data() + t * d.Hcq, d.Hcq, gCq, epsCq);
      const std::vector<float> wuqqr = denseWeight(in[kWuqQr], nzUqQr);
      gemmF32(T, qkWidth, d.Hcq, cq.data(), d.Hcq, wuqqr.data(), qkWidth, qcqr.data(), qkWidth);
      quantizeRow(ACL_BF16, qcqr.data(), T * qkWidth);
      const std::vector<float> wdkvkr = denseWeight(in[kWdkvKr], nzDkvKr);
      gemmF32(T, kvWidth, d.He, x.data(), d.He, wdkvkr.data(), kvWidth, ckvkr.data(), kvWidth);
      quantizeRow(ACL_BF16, ckvkr.data(), T * kvWidth);
    }
    std::vector<float> query(static_cast<size_t>(T * d.N * d.Hckv)),
        queryRope(static_cast<size_t>(T * d.N * d.Dr)), kr(static_cast<size_t>(d.Dr));
    std::vector<float> qc(static_cast<size_t>(d.D));
    const auto es = static_cast<int64_t>(dtypeSize(ACL_BF16));
    for (int64_t t = 0; t < T; ++t) {
      const float* c = cos.data() + t * d.Dr;
      const float* s = sin.data() + t * d.Dr;
      for (int64_t n = 0; n < d.N; ++n) {
        const float* head = qcqr.data() + t * qkWidth + n * (d.D + d.Dr);
        gemmF32(1, d.Hckv, d.D, head, d.D, wuk.data() + n * d.D * d.Hckv, d.Hckv,
                query.data() + (t * d.N + n) * d.Hckv, d.Hckv, 1);
        rope(head + d.D, c, s, queryRope.data() + (t * d.N + n) * d.Dr);
      }
      float* row = ckvkr.data() + t * kvWidth;
      rmsNorm(row, d.Hckv, gCkv, epsCkv);
      rope(row + d.Hckv, c, s, kr.data());
      const int64_t slot = index[static_cast<size_t>(t)];
      if (slot < 0 || slot >= d.cacheRows) continue;  // the kernel's scatter skips negative slots
      storeRow(out[kKvCache].dtype, out[kKvCache].data + slot * d.Hckv * es, es, d.Hckv, row);
      storeRow(out[kKrCache].dtype, out[kKrCache].data + slot * d.Dr * es, es, d.Dr, kr.data());
    }
    storeDense(out[kQuery], query.data());
    storeDense(out[kQueryRope], queryRope.data());
  }
};

bool isPowerOfTwoHeads(int64_t n) { return n >= 1 && n <= 128 && (n & (n - 1)) == 0; }

// `api`/`name`: the entry point (aclnnMlaProlog or aclnnMlaPrologV2WeightNz).
int32_t build(const char* api, const char* name, const aclTensor* x, const aclTensor* wdq,
              const aclTensor* wuqqr, const aclTensor* wuk, const aclTensor* wdkvkr, const aclTensor* gammaCq,
              const aclTensor* gammaCkv, const aclTensor* sin, const aclTensor* cos, const aclTensor* index,
              const aclTensor* kvCache, const aclTensor* krCache, const std::vector<const aclTensor*>& quant,
              double epsCq, double epsCkv, const char* cacheMode, const aclTensor* query,
              const aclTensor* queryRope, uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  // The bf16 tensors, in the doc's argument order.
  const std::vector<std::pair<const char*, const aclTensor*>> bf16Args = {{"tokenX", x},
                                                                          {"weightDq", wdq},
                                                                          {"weightUqQr", wuqqr},
                                                                          {"weightUk", wuk},
                                                                          {"weightDkvKr", wdkvkr},
                                                                          {"rmsnormGammaCq", gammaCq},
                                                                          {"rmsnormGammaCkv", gammaCkv},
                                                                          {"ropeSin", sin},
                                                                          {"ropeCos", cos},
                                                                          {"kvCacheRef", kvCache},
                                                                          {"krCacheRef", krCache},
                                                                          {"queryOut", query},
                                                                          {"queryRopeOut", queryRope}};
  int32_t st = checkNotNull(api, {{"cacheIndex", index}});
  for (const auto& [name, t] : bf16Args) {
    if (st == kSuccess) st = checkNotNull(api, {{name, t}});
  }
  if (st != kSuccess) return st;
  for (const aclTensor* q : quant) {
    if (q != nullptr)
      return fail(api, kErrParamInvalid,
                  "the quantised MlaProlog (dequant, quant and smooth scales, dequantScaleQNopeOut) is not "
                  "supported by the simulator");
  }
  if (wuqqr->desc.dtype == ACL_INT8 || kvCache->desc.dtype == ACL_INT8 || x->desc.dtype == ACL_INT8)
    return fail(api, kErrParamInvalid,
                "int8 inputs or caches (the quantised MlaProlog) are not supported by the simulator");
  const std::string mode = cacheMode != nullptr ? cacheMode : "PA_BSND";
  if (mode != "PA_BSND") {
    return fail(api, kErrParamInvalid,
                mode == "PA_NZ" ? std::string("cacheMode PA_NZ is not supported by the simulator")
                                : fmt::format("cacheMode '{}' must be PA_BSND or PA_NZ", mode));
  }
  for (const auto& [name, t] : bf16Args) {
    if ((st = checkArg(api, name, t, {ACL_BF16})) != kSuccess) return st;
  }
  if ((st = checkArg(api, "cacheIndex", index, {ACL_INT64})) != kSuccess) return st;
  const auto& xs = x->desc.shape;
  if ((st = require(api, xs.size() == 2 || xs.size() == 3,
                    fmt::format("tokenX must be (T, He) or (B, S, He), but is {}", shapeString(xs)))) !=
      kSuccess)
    return st;
  const std::vector<int64_t> lead(xs.begin(), xs.end() - 1);
  Dims d;
  d.T = dimProduct(xs, 0, xs.size() - 1);
  d.He = xs.back();
  d.Hcq = gammaCq->desc.rank() == 1 ? gammaCq->desc.shape[0] : -1;
  d.Hckv = gammaCkv->desc.rank() == 1 ? gammaCkv->desc.shape[0] : -1;
  d.Dr = sin->desc.rank() >= 1 ? sin->desc.shape.back() : -1;
  if ((st = require(api, wuk->desc.rank() == 3,
                    fmt::format("weightUk must be (N, D, Hckv), but is {}", shapeString(wuk->desc.shape)))) !=
      kSuccess)
    return st;
  d.N = wuk->desc.shape[0];
  d.D = wuk->desc.shape[1];
  if ((st = require(
           api,
           (d.He == 7168 || d.He == 7680) && d.Hcq == 1536 && d.Hckv == 512 && d.D == 128 && d.Dr == 64 &&
               isPowerOfTwoHeads(d.N) && wuk->desc.shape[2] == d.Hckv,
           fmt::format("sizes He {} (7168 or 7680), Hcq {} (1536), Hckv {} (512), D {} (128), Dr {} (64), "
                       "N {} (1, 2, 4, ... 128) are outside the documented values",
                       d.He, d.Hcq, d.Hckv, d.D, d.Dr, d.N))) != kSuccess)
    return st;
  std::vector<int64_t> rope = lead, qShape = lead, qrShape = lead;
  rope.push_back(d.Dr);
  qShape.insert(qShape.end(), {d.N, d.Hckv});
  qrShape.insert(qrShape.end(), {d.N, d.Dr});
  if ((st = checkShape(api, "ropeSin", sin->desc.shape, rope)) != kSuccess) return st;
  if ((st = checkShape(api, "ropeCos", cos->desc.shape, rope)) != kSuccess) return st;
  if ((st = checkShape(api, "cacheIndex", index->desc.shape, lead)) != kSuccess) return st;
  if ((st = checkShape(api, "queryOut", query->desc.shape, qShape)) != kSuccess) return st;
  if ((st = checkShape(api, "queryRopeOut", queryRope->desc.shape, qrShape)) != kSuccess) return st;
  const auto& kv = kvCache->desc.shape;
  if ((st = require(api, kv.size() == 4 && kv[2] == 1 && kv[3] == d.Hckv && (kv[1] == 16 || kv[1] == 128),
                    fmt::format("kvCacheRef {} must be (BlockNum, 16 or 128, 1, {})", shapeString(kv),
                                d.Hckv))) != kSuccess)
    return st;
  if ((st = checkShape(api, "krCacheRef", krCache->desc.shape, {kv[0], kv[1], 1, d.Dr})) != kSuccess)
    return st;
  if ((st = require(api, kvCache->desc.isContiguous() && krCache->desc.isContiguous(),
                    "the caches must be contiguous")) != kSuccess)
    return st;
  d.cacheRows = kv[0] * kv[1];
  auto inst = std::make_unique<MlaPrologInstance>();
  MlaPrologInstance& f = *inst;
  for (const auto& [name, w, K, Nw, layout] :
       {std::tuple<const char*, const aclTensor*, int64_t, int64_t, NzLayout*>{"weightDq", wdq, d.He, d.Hcq,
                                                                               &f.nzDq},
        {"weightUqQr", wuqqr, d.Hcq, d.N * (d.D + d.Dr), &f.nzUqQr},
        {"weightDkvKr", wdkvkr, d.He, d.Hckv + d.Dr, &f.nzDkvKr}}) {
    if (w->desc.format != ACL_FORMAT_FRACTAL_NZ)
      return fail(api, kErrParamInvalid, fmt::format("{} must be in FRACTAL_NZ format", name));
    const std::string bad = nzLayoutOfMatrices(w->desc, 1, K, Nw, layout);
    if (!bad.empty()) return fail(api, kErrParamInvalid, fmt::format("{}: {}", name, bad));
  }
  if ((st = checkShape(api, "rmsnormGammaCq", gammaCq->desc.shape, {d.Hcq})) != kSuccess) return st;
  f.d = d;
  f.epsCq = epsCq;
  f.epsCkv = epsCkv;
  addInput(f, "tokenX", x);
  for (const auto& [name, w, layout] :
       {std::tuple<const char*, const aclTensor*, NzLayout*>{"weightDq", wdq, &f.nzDq},
        {"weightUqQr", wuqqr, &f.nzUqQr}}) {
    f.inputs.push_back(nzStorageDesc(w->desc, *layout));
    f.inputNames.emplace_back(name);
  }
  addInput(f, "weightUk", wuk);
  f.inputs.push_back(nzStorageDesc(wdkvkr->desc, f.nzDkvKr));
  f.inputNames.emplace_back("weightDkvKr");
  addInput(f, "rmsnormGammaCq", gammaCq);
  addInput(f, "rmsnormGammaCkv", gammaCkv);
  addInput(f, "ropeSin", sin);
  addInput(f, "ropeCos", cos);
  addInput(f, "cacheIndex", index);
  addOutput(f, "queryOut", query);
  addOutput(f, "queryRopeOut", queryRope);
  addOutput(f, "kvCacheRef", kvCache);
  addOutput(f, "krCacheRef", krCache);
  f.name = name;
  f.attrs = fmt::format("T={} N={} cacheMode={} epsCq={} epsCkv={}", d.T, d.N, mode, epsCq, epsCkv);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnMlaPrologGetWorkspaceSize(
    const aclTensor* tokenX, const aclTensor* weightDq, const aclTensor* weightUqQr,
    const aclTensor* weightUk, const aclTensor* weightDkvKr, const aclTensor* rmsnormGammaCq,
    const aclTensor* rmsnormGammaCkv, const aclTensor* ropeSin, const aclTensor* ropeCos,
    const aclTensor* cacheIndex, const aclTensor* kvCacheRef, const aclTensor* krCacheRef,
    const aclTensor* dequantScaleXOptional, const aclTensor* dequantScaleWDqOptional,
    const aclTensor* dequantScaleWUqQrOptional, const aclTensor* dequantScaleWDkvKrOptional,
    const aclTensor* quantScaleCkvOptional, const aclTensor* quantScaleCkrOptional,
    const aclTensor* smoothScalesCqOptional, double rmsnormEpsilonCq, double rmsnormEpsilonCkv,
    char* cacheModeOptional, const aclTensor* queryOut, const aclTensor* queryRopeOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(
      "aclnnMlaPrologGetWorkspaceSize", "aclnnMlaProlog", tokenX, weightDq, weightUqQr, weightUk, weightDkvKr,
      rmsnormGammaCq, rmsnormGammaCkv, ropeSin, ropeCos, cacheIndex, kvCacheRef, krCacheRef,
      {dequantScaleXOptional, dequantScaleWDqOptional, dequantScaleWUqQrOptional, dequantScaleWDkvKrOptional,
       quantScaleCkvOptional, quantScaleCkrOptional, smoothScalesCqOptional},
      rmsnormEpsilonCq, rmsnormEpsilonCkv, cacheModeOptional, queryOut, queryRopeOut, workspaceSize,
      executor);
}

// V2 adds dequantScaleQNopeOut, the per-token scale of a quantised queryOut: the bf16 form
// leaves it null.
extern "C" aclnnStatus aclnnMlaPrologV2WeightNzGetWorkspaceSize(
    const aclTensor* tokenX, const aclTensor* weightDq, const aclTensor* weightUqQr,
    const aclTensor* weightUk, const aclTensor* weightDkvKr, const aclTensor* rmsnormGammaCq,
    const aclTensor* rmsnormGammaCkv, const aclTensor* ropeSin, const aclTensor* ropeCos,
    const aclTensor* cacheIndex, const aclTensor* kvCacheRef, const aclTensor* krCacheRef,
    const aclTensor* dequantScaleXOptional, const aclTensor* dequantScaleWDqOptional,
    const aclTensor* dequantScaleWUqQrOptional, const aclTensor* dequantScaleWDkvKrOptional,
    const aclTensor* quantScaleCkvOptional, const aclTensor* quantScaleCkrOptional,
    const aclTensor* smoothScalesCqOptional, double rmsnormEpsilonCq, double rmsnormEpsilonCkv,
    char* cacheModeOptional, const aclTensor* queryOut, const aclTensor* queryRopeOut,
    const aclTensor* dequantScaleQNopeOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(
      "aclnnMlaPrologV2WeightNzGetWorkspaceSize", "aclnnMlaPrologV2WeightNz", tokenX, weightDq, weightUqQr,
      weightUk, weightDkvKr, rmsnormGammaCq, rmsnormGammaCkv, ropeSin, ropeCos, cacheIndex, kvCacheRef,
      krCacheRef,
      {dequantScaleXOptional, dequantScaleWDqOptional, dequantScaleWUqQrOptional, dequantScaleWDkvKrOptional,
       quantScaleCkvOptional, quantScaleCkrOptional, smoothScalesCqOptional, dequantScaleQNopeOutOptional},
      rmsnormEpsilonCq, rmsnormEpsilonCkv, cacheModeOptional, queryOut, queryRopeOut, workspaceSize,
      executor);
}

NPUSIM_ACLNN_PHASE2(MlaProlog)
NPUSIM_ACLNN_PHASE2(MlaPrologV2WeightNz)
