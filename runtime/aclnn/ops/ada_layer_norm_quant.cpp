// aclnnAdaLayerNormQuant (ops-nn norm/ada_layer_norm_quant docs): the adaptive layer norm of
// diffusion transformers fused with dynamic quantisation. x [B.., S, H]; scale and shift
// [B.., H] or [B.., 1, H], one row per batch:
//   n = (x - mean) / sqrt(var + eps) * weight + bias      over H (weight, bias optional)
//   y = (n * (1 + scale) + shift) (* smoothScales)
//   quantScale = max|y| / 127 per row, out = rint(y / quantScale) in int8.
// quantMode "dynamic" only and no quantOffset, as the doc states (others: 161002); fp8/hifloat8
// outputs are not 910B's (161002). x fp16/bf16, computed in fp32.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "aclnnop/aclnn_ada_layer_norm_quant.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kInfo(
    {"aclnnAdaLayerNormQuant",
     ExecUnit::kVector,
     {ACL_FLOAT16, ACL_BF16, ACL_INT8},
     "y = layernorm(x) * (1 + scale) + shift; out, quantScale = dynamic_quant(y * smooth)"});

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnAdaLayerNormQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* scale, const aclTensor* shift, const aclTensor* weightOptional,
    const aclTensor* biasOptional, const aclTensor* smoothScalesOptional, double epsilon,
    const char* quantMode, aclTensor* out, aclTensor* quantScale, aclTensor* quantOffsetOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnAdaLayerNormQuantGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_FLOAT16, ACL_BF16})) != kSuccess) return st;
  const aclDataType dt = x->desc.dtype;
  if ((st = require(api, x->desc.rank() >= 2 && x->desc.rank() <= 8, "x must be [B.., S, H]")) != kSuccess)
    return st;
  if (quantMode == nullptr) return fail(api, kErrParamNullptr, "quantMode is null");
  if ((st = require(api, std::string(quantMode) == "dynamic",
                    fmt::format("quantMode \"{}\" is not supported (only \"dynamic\", as documented)",
                                quantMode))) != kSuccess) {
    return st;
  }
  if ((st = require(api, quantOffsetOptional == nullptr,
                    "quantOffsetOptional is not supported (the doc asks for nullptr)")) != kSuccess) {
    return st;
  }
  const std::vector<int64_t>& xs = x->desc.shape;
  const size_t r = xs.size();
  const int64_t H = xs[r - 1], S = xs[r - 2], B = dimProduct(xs, 0, r - 2);
  for (auto [n, t] : {std::pair<const char*, const aclTensor*>{"scale", scale}, {"shift", shift}}) {
    if ((st = checkArg(api, n, t, {dt})) != kSuccess) return st;
    if ((st = require(api, t->desc.numel() == B * H && t->desc.shape.back() == H,
                      fmt::format("{} {} must be [B.., H] or [B.., 1, H] for x {}", n,
                                  shapeString(t->desc.shape), shapeString(xs)))) != kSuccess) {
      return st;
    }
  }
  if ((st = checkArg(api, "out", out, {ACL_INT8, ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E5M2, ACL_HIFLOAT8})) !=
      kSuccess) {
    return st;
  }
  if ((st = require(api, out->desc.dtype == ACL_INT8,
                    "out must be int8 on 910B (fp8 and hifloat8 are Atlas A3/950 formats)")) != kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "out", out->desc.shape, xs)) != kSuccess) return st;
  if ((st = checkArg(api, "quantScale", quantScale, {ACL_FLOAT})) != kSuccess) return st;
  if ((st = checkShape(api, "quantScale", quantScale->desc.shape,
                       std::vector<int64_t>(xs.begin(), xs.end() - 1))) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnAdaLayerNormQuant";
  addInput(*inst, "x", x);
  addInput(*inst, "scale", scale);
  addInput(*inst, "shift", shift);
  // Optional per-channel inputs, in this order after shift.
  const aclTensor* opt[3] = {weightOptional, biasOptional, smoothScalesOptional};
  const char* names[3] = {"weightOptional", "biasOptional", "smoothScalesOptional"};
  bool has[3] = {false, false, false};
  for (int i = 0; i < 3; ++i) {
    if (opt[i] == nullptr) continue;
    if ((st = checkArg(api, names[i], opt[i], {dt})) != kSuccess) return st;
    if ((st = require(api, opt[i]->desc.numel() == H, fmt::format("{} must hold {} values", names[i], H))) !=
        kSuccess) {
      return st;
    }
    addInput(*inst, names[i], opt[i]);
    has[i] = true;
  }
  addOutput(*inst, "out", out);
  addOutput(*inst, "quantScale", quantScale);
  inst->vectorPasses = 9;  // mean, variance, normalise, weight, bias, scale, shift, max, quantise
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> xv = loadDense<float>(in[0]), sc = loadDense<float>(in[1]),
                             sh = loadDense<float>(in[2]);
    std::vector<float> p[3];
    size_t next = 3;
    for (int i = 0; i < 3; ++i) {
      if (has[i]) p[i] = loadDense<float>(in[next++]);
    }
    std::vector<int64_t> q(xv.size());
    std::vector<float> scales(static_cast<size_t>(B * S));
    std::vector<double> y(static_cast<size_t>(H));
    for (int64_t row = 0; row < B * S; ++row) {
      const int64_t b = row / S;
      const float* v = xv.data() + row * H;
      double mean = 0, var = 0;
      for (int64_t h = 0; h < H; ++h) mean += v[h];
      mean /= static_cast<double>(H);
      for (int64_t h = 0; h < H; ++h) var += (v[h] - mean) * (v[h] - mean);
      const double rstd = 1.0 / std::sqrt(var / static_cast<double>(H) + epsilon);
      double m = 0;
      for (int64_t h = 0; h < H; ++h) {
        double n = (v[h] - mean) * rstd * (has[0] ? p[0][h] : 1.0f) + (has[1] ? p[1][h] : 0.0f);
        n = n * (1.0 + sc[b * H + h]) + sh[b * H + h];
        y[h] = n * (has[2] ? p[2][h] : 1.0f);
        m = std::max(m, std::fabs(y[h]));
      }
      const double s = m / 127.0;
      scales[row] = static_cast<float>(s);
      for (int64_t h = 0; h < H; ++h) {
        q[row * H + h] =
            static_cast<int64_t>(s == 0 ? 0.0 : std::clamp(std::nearbyint(y[h] / s), -128.0, 127.0));
      }
    }
    storeDense(o[0], q.data());
    storeDense(o[1], scales.data());
  };
  inst->attrs = fmt::format("epsilon={} quantMode={}", epsilon, quantMode);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(AdaLayerNormQuant)
