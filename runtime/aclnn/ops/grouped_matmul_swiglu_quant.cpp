// aclnnGroupedMatmulSwigluQuant / WeightNZ (ops-transformer gmm/grouped_matmul_swiglu_quant
// README and op_api): A8W8 grouped matmul, SwiGLU and dynamic per-token int8 quantisation. x int8
// [M, K], weight int8 [E, K, N] (ND, or FRACTAL_NZ: a [E, K, N] view converted by
// aclnnTransMatmulWeight or the 5-D view [E, N / 32, K / 16, 16, 32]); groupList int64 cumulative
// end rows (at most E of them); for row i of expert e
//   C = (x_i · w_e) · xScale[i] · weightScale[e, n]   (exact integer product, scales in fp32)
//   S = Swish(C[:N/2]) · C[N/2:]                       (the first half activated, as the kernel's
//                                                       SwiGLU(dst, second, first) computes)
//   outputScale[i] = max|S| / 127, output[i] = rint(S / outputScale[i]) int8 [M, N / 2]
// Rows past groupList's last end are left untouched, as the README states. weightScale and
// xScale fp32/fp16/bf16; outputScale fp32.
// Not supported (161002, named): bias and offset (the README: "not supported in the current
// version"), the asymmetric outputOffset, the A8W4 form (int4 weight, uint64 weightScale).
// Cost: the grouped-matmul cube work at the int8 rate writing fp32 products, which the vector
// cores read back for four passes (dequantisation, SwiGLU, the row maximum, quantisation) and
// write as output and outputScale; the scales and groupList read once.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_grouped_matmul_swiglu_quant.h"
#include "aclnnop/aclnn_grouped_matmul_swiglu_quant_weight_nz.h"
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

constexpr const char* kMath = "output, outputScale = quant(swiglu((x · w_e) · xScale · weightScale_e))";
const OpRegistrar kNd({"aclnnGroupedMatmulSwigluQuant",
                       ExecUnit::kCube,
                       {ACL_INT8, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                       kMath});
const OpRegistrar kNz({"aclnnGroupedMatmulSwigluQuantWeightNZ",
                       ExecUnit::kCube,
                       {ACL_INT8, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                       kMath});

constexpr int kVectorPasses = 4;

class GmmSwigluQuantInstance : public OpInstanceBase<GmmSwigluQuantInstance> {
 public:
  int64_t M = 0, K = 0, N = 0, E = 0;
  NzLayout nz;  // nz.rows > 0: the weight is FRACTAL_NZ

  rt::OpWork work() const override {
    TensorDesc products = outputs[0];  // fp32 products (the kernel's workspace), charged at output
    products.dtype = ACL_FLOAT;
    GroupedMatmulCost c;
    c.M = M, c.K = K, c.N = N, c.E = E;
    c.x = &inputs[0], c.weight = &inputs[1], c.y = &products;
    rt::OpWork w = groupedMatmulWork(c);
    uint64_t side = static_cast<uint64_t>(M * N) * 4;  // the products read back by the vector cores
    for (size_t i = 2; i < inputs.size(); ++i)
      side += static_cast<uint64_t>(inputs[i].numel()) * inputs[i].elementSize();
    const uint64_t results = static_cast<uint64_t>(M * (N / 2) + M * 4);
    for (size_t i = 0; i < w.tiles.size(); ++i) {
      w.tiles[i].vectorBytes += kVectorPasses * w.tiles[i].writeBytes;
      w.tiles[i].readBytes += shareOf(side, i, w.tiles.size());
      w.tiles[i].writeBytes += shareOf(results, i, w.tiles.size());
    }
    return w;
  }

  // in: x, weight, weightScale, xScale, groupList; out: output, outputScale. Rows in no group
  // are not written.
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<int64_t> ends = loadDense<int64_t>(in[4]);
    int64_t last = 0;
    for (int64_t e : ends) last = std::clamp(e, last, M);
    if (last == 0) return;
    std::vector<char> dense;
    const char* wData = in[1].data;
    if (nz.rows > 0) {
      dense.resize(static_cast<size_t>(nz.batch * nz.rows * nz.cols));
      nzToDense(nz, 1, in[1].data, dense.data());
      wData = dense.data();
    }
    const std::vector<float> x = loadDense<float>(in[0]), wScale = loadDense<float>(in[2]),
                             xScale = loadDense<float>(in[3]);
    const int64_t H = N / 2;
    const auto qEs = static_cast<int64_t>(dtypeSize(out[0].dtype));
    const auto sEs = static_cast<int64_t>(dtypeSize(out[1].dtype));
    std::vector<float> w, part, s(static_cast<size_t>(H));
    std::vector<double> acc;
    std::vector<int64_t> q(static_cast<size_t>(H));
    int64_t start = 0;
    for (size_t e = 0; e < ends.size() && start < M; ++e) {
      const int64_t end = std::clamp(ends[e], start, M), rows = end - start;
      if (rows == 0) continue;
      const auto* p = reinterpret_cast<const int8_t*>(wData) + static_cast<int64_t>(e) * K * N;
      w.assign(p, p + K * N);
      acc.assign(static_cast<size_t>(rows * N), 0.0);
      part.resize(acc.size());
      for (int64_t k0 = 0; k0 < K; k0 += kExactInt8K) {
        const int64_t kk = std::min(kExactInt8K, K - k0);
        gemmF32(rows, N, kk, x.data() + start * K + k0, K, w.data() + k0 * N, N, part.data(), N);
        for (size_t i = 0; i < acc.size(); ++i) acc[i] += part[i];
      }
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t i = start + r;
        auto c = [&](int64_t n) {
          return static_cast<float>(acc[static_cast<size_t>(r * N + n)]) * xScale[static_cast<size_t>(i)] *
                 wScale[static_cast<size_t>(static_cast<int64_t>(e) * N + n)];
        };
        float mx = 0.0f;
        for (int64_t n = 0; n < H; ++n) {
          const float a = c(n);
          const float v = a / (1.0f + std::exp(-a)) * c(n + H);
          s[static_cast<size_t>(n)] = v;
          mx = std::max(mx, std::fabs(v));
        }
        const float scale = mx / 127.0f;
        const float inv = scale > 0.0f ? 1.0f / scale : 0.0f;
        for (int64_t n = 0; n < H; ++n) {
          const float v = s[static_cast<size_t>(n)] * inv;
          q[static_cast<size_t>(n)] = static_cast<int64_t>(std::clamp(std::nearbyint(v), -128.0f, 127.0f));
        }
        storeRow(out[0].dtype, out[0].data + i * out[0].strides[0] * qEs, out[0].strides[1] * qEs, H,
                 q.data());
        storeRow(out[1].dtype, out[1].data + i * out[1].strides[0] * sEs, sEs, 1, &scale);
      }
      start = end;
    }
  }
};

int32_t build(const char* api, const char* name, bool requireNz, const aclTensor* x, const aclTensor* weight,
              const aclTensor* bias, const aclTensor* offset, const aclTensor* weightScale,
              const aclTensor* xScale, const aclTensor* groupList, const aclTensor* output,
              const aclTensor* outputScale, const aclTensor* outputOffset, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x", x},
                                  {"weight", weight},
                                  {"weightScale", weightScale},
                                  {"xScale", xScale},
                                  {"groupList", groupList},
                                  {"output", output},
                                  {"outputScale", outputScale}});
  if (st != kSuccess) return st;
  if (bias != nullptr || offset != nullptr || outputOffset != nullptr) {
    return fail(
        api, kErrParamInvalid,
        "bias, offset and outputOffset (asymmetric quantisation) are not supported by the simulator (the "
        "README: not supported in the current version)");
  }
  if (weight->desc.dtype == ACL_INT4 || weight->desc.dtype == ACL_INT32)
    return fail(api, kErrParamInvalid, "the A8W4 form (int4 weight) is not supported by the simulator");
  if ((st = checkArg(api, "x", x, {ACL_INT8}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "weight", weight, {ACL_INT8})) != kSuccess) return st;
  if ((st = checkArg(api, "weightScale", weightScale, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, 2)) != kSuccess)
    return st;
  if ((st = checkArg(api, "xScale", xScale, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "groupList", groupList, {ACL_INT64}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "output", output, {ACL_INT8}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "outputScale", outputScale, {ACL_FLOAT}, 1)) != kSuccess) return st;
  auto inst = std::make_unique<GmmSwigluQuantInstance>();
  GmmSwigluQuantInstance& f = *inst;
  f.M = x->desc.shape[0];
  f.K = x->desc.shape[1];
  f.E = weightScale->desc.shape[0];
  f.N = weightScale->desc.shape[1];
  if ((st = require(api, f.N % 2 == 0 && f.N <= 10240 && f.K < 65536,
                    fmt::format("N = {} must be even and at most 10240, K = {} below 65536", f.N, f.K))) !=
      kSuccess)
    return st;
  const bool nz = weight->desc.format == ACL_FORMAT_FRACTAL_NZ;
  if (requireNz && !nz) return fail(api, kErrParamInvalid, "weight must be in FRACTAL_NZ format");
  if (nz) {
    const std::string bad = nzLayoutOfMatrices(weight->desc, f.E, f.K, f.N, &f.nz);
    if (!bad.empty()) return fail(api, kErrParamInvalid, "weight: " + bad);
    if ((st = require(api, f.nz.batch == f.E && f.nz.rows == f.K && f.nz.cols == f.N,
                      fmt::format("weight {} must hold [{}, {}, {}]", shapeString(weight->desc.shape), f.E,
                                  f.K, f.N))) != kSuccess)
      return st;
  } else {
    if ((st = checkShape(api, "weight", weight->desc.shape, {f.E, f.K, f.N})) != kSuccess) return st;
    if ((st = require(api, weight->desc.isContiguous(), "weight must be contiguous")) != kSuccess) return st;
  }
  if ((st = checkShape(api, "xScale", xScale->desc.shape, {f.M})) != kSuccess) return st;
  if ((st = require(api, groupList->desc.shape[0] >= 1 && groupList->desc.shape[0] <= f.E,
                    fmt::format("groupList has {} entries, expected 1 to E = {}", groupList->desc.shape[0],
                                f.E))) != kSuccess)
    return st;
  if ((st = checkShape(api, "output", output->desc.shape, {f.M, f.N / 2})) != kSuccess) return st;
  if ((st = checkShape(api, "outputScale", outputScale->desc.shape, {f.M})) != kSuccess) return st;
  addInput(f, "x", x);
  if (nz) {
    f.inputs.push_back(nzStorageDesc(weight->desc, f.nz));
    f.inputNames.emplace_back("weight");
  } else {
    addInput(f, "weight", weight);
  }
  addInput(f, "weightScale", weightScale);
  addInput(f, "xScale", xScale);
  addInput(f, "groupList", groupList);
  addOutput(f, "output", output);
  addOutput(f, "outputScale", outputScale);
  f.name = name;
  f.attrs = fmt::format("experts={}{}", f.E, nz ? " weight=NZ" : "");
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* bias, const aclTensor* offset,
    const aclTensor* weightScale, const aclTensor* xScale, const aclTensor* groupList, aclTensor* output,
    aclTensor* outputScale, aclTensor* outputOffset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build("aclnnGroupedMatmulSwigluQuantGetWorkspaceSize",
                              "aclnnGroupedMatmulSwigluQuant", false, x, weight, bias, offset, weightScale,
                              xScale, groupList, output, outputScale, outputOffset, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* bias, const aclTensor* offset,
    const aclTensor* weightScale, const aclTensor* xScale, const aclTensor* groupList, aclTensor* output,
    aclTensor* outputScale, aclTensor* outputOffset, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build("aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize",
                              "aclnnGroupedMatmulSwigluQuantWeightNZ", true, x, weight, bias, offset,
                              weightScale, xScale, groupList, output, outputScale, outputOffset,
                              workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GroupedMatmulSwigluQuant)
NPUSIM_ACLNN_PHASE2(GroupedMatmulSwigluQuantWeightNZ)
