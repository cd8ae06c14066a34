// aclnnGroupedMatmulFinalizeRouting (V1, V2, V3, WeightNz, WeightNzV2; ops-transformer
// gmm/grouped_matmul_finalize_routing docs): a quantised grouped matmul whose rows are combined
// back into tokens. x int8 [m, k]; the rows of x split over the E experts by groupList (count
// or cumulative end rows, groupListType 1 / 0); for row i of expert e
//   W8A8: y_i = (x_i · w_e) · scale[e, n] · pertokenScale[i] (+ bias[e, n])
//         w int8 [E, k, n] (ND, or FRACTAL_NZ after aclnnTransMatmulWeight), scale fp32 [E, n] or [E, 1, n]
//   W4A8: y_i = Σ_g (x_i,g · w_e,g) · scale_g[e, g, n] (+ offset[e, n] · Σ_k x_i,k), · pertokenScale[i]
//         w int4 packed eight to an int32 [E, k, n / 8], scale uint64/int64 [E, G, n] in
//         aclnnTransQuantParam's format (quant_param.h), G groups of k / G rows, offset fp32 [E, 1, n]
//         (the doc's antiquantOffset · scale). Its bias (8 · Σ_k w · scale, an auxiliary the
//         kernel needs for its int4 split) is checked but not used: the definition is computed.
// then out [batch, n] fp32 = 0 except rows [sharedInputOffset, + bsdp) = sharedInputWeight ·
// sharedInput (bf16 [bsdp, n]), and out[rowIndex[i]] += logit[i] · y_i (logit, pertokenScale
// default 1). Products are exact integers, scales applied in fp64, out stored in fp32.
// Not supported (161002): dtype other than 0 (fp32 out, the docs' only value), transposed x or
// w, antiquantScale/antiquantOffset (the docs' "not enabled"), int4 weights in NZ.
// Cost: the grouped-matmul cube work (int8 rate; packed int4 charged as int8 bytes), the
// dequantisation and combine as one vector pass over the products, out's initialisation (shared
// input read, out written) and the per-row and per-channel parameters read once.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_grouped_matmul_finalize_routing.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_v2.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_v3.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz_v2.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/grouped_matmul_work.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/quant_param.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {
namespace {

constexpr const char* kMath = "out[rowIndex[i]] += logit[i] · (x_i · w_e) · scale_e · pertokenScale[i]";
const OpRegistrar kV1({"aclnnGroupedMatmulFinalizeRouting",
                       ExecUnit::kCube,
                       {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_BF16},
                       kMath});
const OpRegistrar kV2({"aclnnGroupedMatmulFinalizeRoutingV2",
                       ExecUnit::kCube,
                       {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_BF16},
                       kMath});
const OpRegistrar kV3({"aclnnGroupedMatmulFinalizeRoutingV3",
                       ExecUnit::kCube,
                       {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_BF16},
                       kMath});
const OpRegistrar kNz({"aclnnGroupedMatmulFinalizeRoutingWeightNz",
                       ExecUnit::kCube,
                       {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_BF16},
                       kMath});
const OpRegistrar kNzV2({"aclnnGroupedMatmulFinalizeRoutingWeightNzV2",
                         ExecUnit::kCube,
                         {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_BF16},
                         kMath});

class FinalizeRoutingInstance : public OpInstanceBase<FinalizeRoutingInstance> {
 public:
  int64_t M = 0, K = 0, N = 0, E = 0, G = 1, batch = 0, sharedRows = 0, sharedOffset = 0;
  bool int4 = false, cumulative = true;
  NzLayout nz;  // when the weight is FRACTAL_NZ (nz.rows > 0)
  float sharedWeight = 1.0f;
  // Input indices (-1 if absent); 0 x, 1 weight, 2 scale.
  int groupList = -1, bias = -1, offset = -1, perToken = -1, shared = -1, logit = -1, rowIndex = -1;

  rt::OpWork work() const override {
    GroupedMatmulCost c;
    c.M = M, c.K = K, c.N = N, c.E = E;
    c.x = &inputs[0], c.weight = &inputs[1], c.y = &outputs[0];
    c.weightEs = 1;  // int8, and packed int4 charged as int8 (an overestimate of its bytes)
    rt::OpWork w = groupedMatmulWork(c);
    // out's initialisation and the parameters, spread over the tiles; the combine's vector pass.
    uint64_t side = static_cast<uint64_t>(batch * N) * 4;
    for (size_t i = 2; i < inputs.size(); ++i)
      side += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    for (size_t i = 0; i < w.tiles.size(); ++i) {
      w.tiles[i].readBytes += shareOf(side, i, w.tiles.size());
      w.tiles[i].vectorBytes += w.tiles[i].writeBytes;
    }
    return w;
  }

  std::vector<double> optional(const std::vector<HostTensor>& in, int index) const {
    return index >= 0 ? loadDense<double>(in[static_cast<size_t>(index)]) : std::vector<double>();
  }

  // Expert e's weights [K, N] as floats (exact small integers).
  std::vector<float> expertWeights(const char* dense, int64_t e) const {
    std::vector<float> w(static_cast<size_t>(K * N));
    if (int4) {
      const std::vector<int64_t> v = unpackInt4(dense + e * K * N / 2, K * N);
      std::copy(v.begin(), v.end(), w.begin());
    } else {
      const auto* p = reinterpret_cast<const int8_t*>(dense) + e * K * N;
      std::copy(p, p + K * N, w.begin());
    }
    return w;
  }

  // Per-channel scale of expert e, group g (W4A8: the fp32 inside the 64-bit parameter).
  double scaleOf(const HostTensor& s, const std::vector<double>& fp, int64_t e, int64_t g, int64_t n) const {
    const int64_t idx = (e * G + g) * N + n;
    if (!int4) return fp[static_cast<size_t>(idx)];
    uint64_t param = 0;
    std::memcpy(&param, s.data + idx * 8, 8);
    return quantParamScale(param);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<double> y(static_cast<size_t>(batch * N), 0.0);
    if (shared >= 0) {
      const std::vector<double> s = loadDense<double>(in[static_cast<size_t>(shared)]);
      for (size_t i = 0; i < s.size(); ++i)
        y[static_cast<size_t>(sharedOffset * N) + i] = sharedWeight * s[i];
    }
    const std::vector<double> scaleF = int4 ? std::vector<double>() : loadDense<double>(in[2]);
    const std::vector<double> off = optional(in, offset), b = optional(in, bias), pt = optional(in, perToken),
                              lg = optional(in, logit), rows = optional(in, rowIndex);
    const std::vector<int64_t> groups =
        groupList >= 0 ? loadDense<int64_t>(in[static_cast<size_t>(groupList)]) : std::vector<int64_t>{M};
    std::vector<char> denseNz;
    const char* wData = in[1].data;
    if (nz.rows > 0) {
      denseNz.resize(static_cast<size_t>(nz.batch * nz.rows * nz.cols));
      nzToDense(nz, 1, in[1].data, denseNz.data());
      wData = denseNz.data();
    }
    const std::vector<float> x = loadDense<float>(in[0]);
    std::vector<float> part;
    std::vector<double> acc;
    int64_t start = 0;
    for (int64_t e = 0; e < E && start < M; ++e) {
      const int64_t g = static_cast<int64_t>(groups.size()) > e ? groups[static_cast<size_t>(e)] : 0;
      const int64_t end = std::clamp(cumulative ? g : start + g, start, M), count = end - start;
      if (count == 0) continue;
      const std::vector<float> w = expertWeights(wData, e);
      acc.assign(static_cast<size_t>(count * N), 0.0);
      part.resize(acc.size());
      const int64_t groupK = K / G;
      for (int64_t q = 0; q < G; ++q) {
        for (int64_t k0 = q * groupK; k0 < (q + 1) * groupK; k0 += kExactInt8K) {
          const int64_t kk = std::min(kExactInt8K, (q + 1) * groupK - k0);
          gemmF32(count, N, kk, x.data() + start * K + k0, K, w.data() + k0 * N, N, part.data(), N);
          for (int64_t r = 0; r < count; ++r)
            for (int64_t n = 0; n < N; ++n)
              acc[static_cast<size_t>(r * N + n)] +=
                  static_cast<double>(part[static_cast<size_t>(r * N + n)]) * scaleOf(in[2], scaleF, e, q, n);
        }
      }
      for (int64_t r = 0; r < count; ++r) {
        const int64_t i = start + r;
        const auto dst = rows.empty() ? i : static_cast<int64_t>(rows[static_cast<size_t>(i)]);
        if (dst < 0 || dst >= batch) continue;  // an index outside out adds nothing
        double xSum = 0;
        if (!off.empty())
          for (int64_t k = 0; k < K; ++k) xSum += x[static_cast<size_t>(i * K + k)];
        const double rowScale = (pt.empty() ? 1.0 : pt[static_cast<size_t>(i)]);
        const double weight = lg.empty() ? 1.0 : lg[static_cast<size_t>(i)];
        for (int64_t n = 0; n < N; ++n) {
          double v = acc[static_cast<size_t>(r * N + n)];
          if (!off.empty()) v += off[static_cast<size_t>(e * N + n)] * xSum;
          v *= rowScale;
          if (!b.empty() && !int4) v += b[static_cast<size_t>(e * N + n)];
          y[static_cast<size_t>(dst * N + n)] += weight * v;
        }
      }
      start = end;
    }
    storeRounded(out[0], y);
  }
};

struct FrArgs {
  const aclTensor *x, *w, *scale, *bias, *offset, *aqScale, *aqOffset, *perToken, *groupList, *shared, *logit,
      *rowIndex;
  int64_t dtype;
  float sharedWeight;
  int64_t sharedOffset;
  bool transposeX, transposeW;
  int64_t groupListType;
  const aclTensor* out;
};

// Checks an optional tensor's type and shape and adds it as an input; `slot` gets its index.
int32_t addOptional(const char* api, FinalizeRoutingInstance& f, const char* name, const aclTensor* t,
                    std::initializer_list<aclDataType> types, const std::vector<std::vector<int64_t>>& shapes,
                    int* slot) {
  if (t == nullptr) return kSuccess;
  int32_t st = checkArg(api, name, t, types);
  if (st != kSuccess) return st;
  if (std::find(shapes.begin(), shapes.end(), t->desc.shape) == shapes.end()) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} has shape {}, expected {}", name, shapeString(t->desc.shape),
                            shapeString(shapes[0])));
  }
  *slot = static_cast<int>(f.inputs.size());
  addInput(f, name, t);
  return kSuccess;
}

int32_t buildFr(const char* api, const char* name, bool requireNz, const FrArgs& a, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", a.x}, {"w", a.w}, {"scale", a.scale}, {"out", a.out}});
  if (st != kSuccess) return st;
  if (a.dtype != 0) return fail(api, kErrParamInvalid, fmt::format("dtype {} must be 0 (fp32 out)", a.dtype));
  if (a.transposeX || a.transposeW)
    return fail(api, kErrParamInvalid, "transposed x or w is not supported (the docs allow false only)");
  if (a.aqScale != nullptr || a.aqOffset != nullptr)
    return fail(api, kErrParamInvalid, "antiquantScale and antiquantOffset are not enabled (must be null)");
  if (a.groupListType != 0 && a.groupListType != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("groupListType {} must be 0 (cumulative) or 1 (counts)", a.groupListType));
  }
  if ((st = checkArg(api, "x", a.x, {ACL_INT8}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "w", a.w, {ACL_INT8, ACL_INT32}, 3)) != kSuccess) return st;
  auto inst = std::make_unique<FinalizeRoutingInstance>();
  FinalizeRoutingInstance& f = *inst;
  f.int4 = a.w->desc.dtype == ACL_INT32;
  f.M = a.x->desc.shape[0];
  f.K = a.x->desc.shape[1];
  f.E = a.w->desc.shape[0];
  f.N = a.w->desc.shape[2] * (f.int4 ? 8 : 1);
  const bool nz = a.w->desc.format == ACL_FORMAT_FRACTAL_NZ;
  if (requireNz && !nz)
    return fail(api, kErrParamInvalid, "w must be FRACTAL_NZ (converted by aclnnTransMatmulWeight)");
  if (nz && f.int4)
    return fail(api, kErrParamInvalid, "an int4 weight in FRACTAL_NZ is not supported by the simulator");
  if ((st = require(api, a.w->desc.shape[1] == f.K && f.E > 0 && f.E <= 256,
                    fmt::format("w {} must be [E, {}, n] with 1 <= E <= 256", shapeString(a.w->desc.shape),
                                f.K))) != kSuccess)
    return st;
  if ((st = require(api, nz || a.w->desc.isContiguous(), "w must be contiguous")) != kSuccess) return st;
  if ((st = checkArg(api, "out", a.out, {ACL_FLOAT}, 2)) != kSuccess) return st;
  f.batch = a.out->desc.shape[0];
  if ((st = checkShape(api, "out", a.out->desc.shape, {f.batch, f.N})) != kSuccess) return st;
  addInput(f, "x", a.x);
  if (nz) {
    const std::string bad = nzLayoutOf(a.w->desc, &f.nz);
    if (!bad.empty()) return fail(api, kErrParamInvalid, "w: " + bad);
    if (f.nz.transposed) return fail(api, kErrParamInvalid, "a transposed NZ weight is not supported");
    TensorDesc storage = nzStorageDesc(a.w->desc, f.nz);
    f.inputs.push_back(storage);
    f.inputNames.emplace_back("w");
  } else {
    addInput(f, "w", a.w);
  }
  int scaleSlot = -1;
  if (f.int4) {
    const int64_t G = a.scale->desc.rank() == 3 ? a.scale->desc.shape[1] : 0;
    if ((st = require(api,
                      G > 0 && f.K % G == 0 && a.scale->desc.shape[0] == f.E && a.scale->desc.shape[2] == f.N,
                      fmt::format("scale {} must be [{}, G, {}] with G dividing k = {}",
                                  shapeString(a.scale->desc.shape), f.E, f.N, f.K))) != kSuccess)
      return st;
    f.G = G;
    if ((st = require(api, a.scale->desc.isContiguous(), "scale must be contiguous")) != kSuccess) return st;
    st = addOptional(api, f, "scale", a.scale, {ACL_INT64, ACL_UINT64}, {a.scale->desc.shape}, &scaleSlot);
  } else {
    st = addOptional(api, f, "scale", a.scale, {ACL_FLOAT}, {{f.E, f.N}, {f.E, 1, f.N}}, &scaleSlot);
  }
  if (st != kSuccess) return st;
  const std::vector<std::vector<int64_t>> perExpert = {{f.E, f.N}, {f.E, 1, f.N}};
  if (f.int4) {
    if ((st = addOptional(api, f, "bias", a.bias, {ACL_FLOAT}, perExpert, &f.bias)) != kSuccess) return st;
    if ((st = addOptional(api, f, "offset", a.offset, {ACL_FLOAT}, perExpert, &f.offset)) != kSuccess)
      return st;
  } else {
    if ((st = addOptional(api, f, "bias", a.bias, {ACL_FLOAT, ACL_BF16}, perExpert, &f.bias)) != kSuccess)
      return st;
    if (a.offset != nullptr) return fail(api, kErrParamInvalid, "offset is for int4 weights only");
  }
  if ((st = addOptional(api, f, "pertokenScale", a.perToken, {ACL_FLOAT}, {{f.M}}, &f.perToken)) != kSuccess)
    return st;
  if ((st = addOptional(api, f, "groupList", a.groupList, {ACL_INT64}, {{f.E}}, &f.groupList)) != kSuccess)
    return st;
  if ((st = require(api, a.groupList != nullptr || f.E == 1,
                    "groupList is required with more than one expert")) != kSuccess)
    return st;
  if (a.shared != nullptr) {
    f.sharedRows = a.shared->desc.rank() == 2 ? a.shared->desc.shape[0] : -1;
    if ((st = checkArg(api, "sharedInput", a.shared, {ACL_BF16}, 2)) != kSuccess) return st;
    if ((st = require(api,
                      a.shared->desc.shape[1] == f.N && a.sharedOffset >= 0 &&
                          a.sharedOffset + f.sharedRows <= f.batch,
                      fmt::format("sharedInput {} at row offset {} must fit in out {}",
                                  shapeString(a.shared->desc.shape), a.sharedOffset,
                                  shapeString(a.out->desc.shape)))) != kSuccess)
      return st;
    f.shared = static_cast<int>(f.inputs.size());
    addInput(f, "sharedInput", a.shared);
  }
  if ((st = addOptional(api, f, "logit", a.logit, {ACL_FLOAT}, {{f.M}}, &f.logit)) != kSuccess) return st;
  if ((st = addOptional(api, f, "rowIndex", a.rowIndex, {ACL_INT64, ACL_INT32}, {{f.M}}, &f.rowIndex)) !=
      kSuccess)
    return st;
  addOutput(f, "out", a.out);
  f.cumulative = a.groupListType == 0;
  f.sharedOffset = a.sharedOffset;
  f.sharedWeight = a.sharedWeight;
  f.name = name;
  f.attrs = fmt::format("experts={} {} sharedInputWeight={} sharedInputOffset={} groupListType={}", f.E,
                        f.int4 ? "w4a8" : "w8a8", a.sharedWeight, a.sharedOffset, a.groupListType);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::buildFr;

extern "C" aclnnStatus aclnnGroupedMatmulFinalizeRoutingGetWorkspaceSize(
    const aclTensor* x, aclTensor* w, const aclTensor* scaleOptional, const aclTensor* biasOptional,
    const aclTensor* pertokenScaleOptional, const aclTensor* groupListOptional,
    const aclTensor* sharedInputOptional, const aclTensor* logitOptional, const aclTensor* rowIndexOptional,
    int64_t dtype, float sharedInputWeight, int64_t sharedInputOffset, bool transposeX, bool transposeW,
    int64_t groupListType, aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildFr("aclnnGroupedMatmulFinalizeRoutingGetWorkspaceSize", "aclnnGroupedMatmulFinalizeRouting",
                 false,
                 {x, w, scaleOptional, biasOptional, nullptr, nullptr, nullptr, pertokenScaleOptional,
                  groupListOptional, sharedInputOptional, logitOptional, rowIndexOptional, dtype,
                  sharedInputWeight, sharedInputOffset, transposeX, transposeW, groupListType, y},
                 workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupedMatmulFinalizeRoutingV2GetWorkspaceSize(
    const aclTensor* x1, aclTensor* x2, const aclTensor* scaleOptional, const aclTensor* biasOptional,
    const aclTensor* offsetOptional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* pertokenScaleOptional,
    const aclTensor* groupListOptional, const aclTensor* sharedInputOptional, const aclTensor* logitOptional,
    const aclTensor* rowIndexOptional, int64_t dtype, float sharedInputWeight, int64_t sharedInputOffset,
    bool transposeX1, bool transposeX2, int64_t groupListType, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return buildFr(
      "aclnnGroupedMatmulFinalizeRoutingV2GetWorkspaceSize", "aclnnGroupedMatmulFinalizeRoutingV2", false,
      {x1, x2, scaleOptional, biasOptional, offsetOptional, antiquantScaleOptional, antiquantOffsetOptional,
       pertokenScaleOptional, groupListOptional, sharedInputOptional, logitOptional, rowIndexOptional, dtype,
       sharedInputWeight, sharedInputOffset, transposeX1, transposeX2, groupListType, out},
      workspaceSize, executor);
}

// tuningConfig (V3, WeightNzV2) is a tiling hint (the expected rows per expert); results do not depend on it.
extern "C" aclnnStatus aclnnGroupedMatmulFinalizeRoutingV3GetWorkspaceSize(
    const aclTensor* x1, aclTensor* x2, const aclTensor* scaleOptional, const aclTensor* biasOptional,
    const aclTensor* offsetOptional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* pertokenScaleOptional,
    const aclTensor* groupListOptional, const aclTensor* sharedInputOptional, const aclTensor* logitOptional,
    const aclTensor* rowIndexOptional, int64_t dtype, float sharedInputWeight, int64_t sharedInputOffset,
    bool transposeX1, bool transposeX2, int64_t groupListType, const aclIntArray* /*tuningConfigOptional*/,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildFr(
      "aclnnGroupedMatmulFinalizeRoutingV3GetWorkspaceSize", "aclnnGroupedMatmulFinalizeRoutingV3", false,
      {x1, x2, scaleOptional, biasOptional, offsetOptional, antiquantScaleOptional, antiquantOffsetOptional,
       pertokenScaleOptional, groupListOptional, sharedInputOptional, logitOptional, rowIndexOptional, dtype,
       sharedInputWeight, sharedInputOffset, transposeX1, transposeX2, groupListType, out},
      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNzGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* scale, const aclTensor* bias,
    const aclTensor* pertokenScaleOptional, const aclTensor* groupList, const aclTensor* sharedInput,
    const aclTensor* logit, const aclTensor* rowIndex, int64_t dtype, float sharedInputWeight,
    int64_t sharedInputOffset, bool transposeX1, bool transposeX2, int64_t groupListType, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildFr(
      "aclnnGroupedMatmulFinalizeRoutingWeightNzGetWorkspaceSize",
      "aclnnGroupedMatmulFinalizeRoutingWeightNz", true,
      {x1, x2, scale, bias, nullptr, nullptr, nullptr, pertokenScaleOptional, groupList, sharedInput, logit,
       rowIndex, dtype, sharedInputWeight, sharedInputOffset, transposeX1, transposeX2, groupListType, out},
      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNzV2GetWorkspaceSize(
    const aclTensor* x1, aclTensor* x2, const aclTensor* scale, const aclTensor* bias,
    const aclTensor* offsetOptional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* pertokenScaleOptional,
    const aclTensor* groupList, const aclTensor* sharedInput, const aclTensor* logit,
    const aclTensor* rowIndex, int64_t dtype, float sharedInputWeight, int64_t sharedInputOffset,
    bool transposeX1, bool transposeX2, int64_t groupListType, const aclIntArray* /*tuningConfigOptional*/,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return buildFr("aclnnGroupedMatmulFinalizeRoutingWeightNzV2GetWorkspaceSize",
                 "aclnnGroupedMatmulFinalizeRoutingWeightNzV2", true,
                 {x1, x2, scale, bias, offsetOptional, antiquantScaleOptional, antiquantOffsetOptional,
                  pertokenScaleOptional, groupList, sharedInput, logit, rowIndex, dtype, sharedInputWeight,
                  sharedInputOffset, transposeX1, transposeX2, groupListType, out},
                 workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GroupedMatmulFinalizeRouting)
NPUSIM_ACLNN_PHASE2(GroupedMatmulFinalizeRoutingV2)
NPUSIM_ACLNN_PHASE2(GroupedMatmulFinalizeRoutingV3)
NPUSIM_ACLNN_PHASE2(GroupedMatmulFinalizeRoutingWeightNz)
NPUSIM_ACLNN_PHASE2(GroupedMatmulFinalizeRoutingWeightNzV2)
