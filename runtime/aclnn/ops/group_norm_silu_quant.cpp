// aclnnGroupNormSiluQuant (ops-nn norm/group_norm_silu_quant, issue 28): group norm of self
// [N, C, ...] over C/group channels and the spatial elements, silu, then int8 quantisation by
// quantScale (one value, or one per channel). As the 910B kernel computes it
// (op_kernel/group_norm_silu_quant_b16.h): in fp32, variance E[x^2] - E[x]^2, y = x * (rstd *
// gamma) + (beta - rstd * gamma * mean), silu y / (1 + exp(-y)), y / quantScale rounded to fp16,
// clamped to [-128, 127] and rounded half to even to int8; mean and rstd written in self's type.
// A whole-tensor kernel (dense_kernel_op.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_group_norm_silu_quant.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const OpInfo kGroupNormSiluQuant{"aclnnGroupNormSiluQuant",
                                 ExecUnit::kVector,
                                 {ACL_FLOAT16, ACL_BF16},
                                 "out = int8(silu(group_norm(self) * gamma + beta) / quantScale)"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kGroupNormSiluQuant)};

int32_t build(const char* api, const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
              const aclTensor* quantScale, int64_t group, double eps, bool silu, const aclTensor* out,
              const aclTensor* meanOut, const aclTensor* rstdOut, uint64_t* ws, aclOpExecutor** ex) {
  rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "self", self, {ACL_FLOAT16, ACL_BF16})) != kSuccess) return st;
  const aclDataType dt = self->desc.dtype;
  const auto& s = self->desc.shape;
  if ((st = require(api, s.size() >= 2 && s.size() <= 8, "self must have 2 to 8 dimensions (N, C, ...)")) !=
      kSuccess)
    return st;
  const int64_t N = s[0], C = s[1];
  if ((st = checkArg(api, "quantScale", quantScale, {ACL_FLOAT}, 1)) != kSuccess) return st;
  const int64_t nScale = quantScale->desc.numel();
  if ((st = require(api, nScale == 1 || nScale == C,
                    fmt::format("quantScale holds {} values: 1 or C = {}", nScale, C))) != kSuccess)
    return st;
  for (const auto& [name, t] :
       {std::make_pair("gammaOptional", gamma), std::make_pair("betaOptional", beta)}) {
    if (t == nullptr) continue;
    if ((st = checkArg(api, name, t, {dt}, 1)) != kSuccess) return st;
    if ((st = require(api, t->desc.shape[0] == C, fmt::format("{} must hold C = {} values", name, C))) !=
        kSuccess)
      return st;
  }
  if ((st = require(api, group > 0 && C % group == 0,
                    fmt::format("group {} must be positive and divide C = {}", group, C))) != kSuccess)
    return st;
  if ((st = require(api, eps > 0, fmt::format("eps {} must be > 0", eps))) != kSuccess) return st;
  if ((st = require(api, silu, "activateSilu false is not supported (the doc: only true)"))) return st;
  if ((st = checkArg(api, "out", out, {ACL_INT8})) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, s)) != kSuccess) return st;
  if ((st = checkArg(api, "meanOut", meanOut, {dt})) != kSuccess) return st;
  if ((st = checkArg(api, "rstdOut", rstdOut, {dt})) != kSuccess) return st;
  if ((st = checkShape(api, "meanOut", meanOut->desc.shape, {N, group})) != kSuccess) return st;
  if ((st = checkShape(api, "rstdOut", rstdOut->desc.shape, {N, group})) != kSuccess) return st;
  const int64_t spatial = C == 0 ? 0 : self->desc.numel() / std::max<int64_t>(N * C, 1);
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnGroupNormSiluQuant";
  addInput(*inst, "self", self);
  addInput(*inst, "quantScale", quantScale);
  if (gamma != nullptr) addInput(*inst, "gammaOptional", gamma);
  if (beta != nullptr) addInput(*inst, "betaOptional", beta);
  addOutput(*inst, "out", out);
  addOutput(*inst, "meanOut", meanOut);
  addOutput(*inst, "rstdOut", rstdOut);
  const bool hasGamma = gamma != nullptr, hasBeta = beta != nullptr;
  inst->vectorPasses = 10;  // sums of x and x^2, scale and bias, silu (4), quantise and casts
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& o) {
    const std::vector<float> x = loadDense<float>(in[0]);
    const std::vector<float> qs = loadDense<float>(in[1]);
    size_t next = 2;
    const std::vector<float> g = hasGamma ? loadDense<float>(in[next++]) : std::vector<float>(C, 1.0f);
    const std::vector<float> b = hasBeta ? loadDense<float>(in[next]) : std::vector<float>(C, 0.0f);
    const int64_t cg = C / group, count = cg * spatial;
    std::vector<float> mean(static_cast<size_t>(N * group), 0.0f),
        rstd(mean.size(), std::numeric_limits<float>::quiet_NaN()), y(x.size());
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t k = 0; k < group; ++k) {
        const int64_t base = (n * C + k * cg) * spatial;
        if (count == 0) continue;
        float sum = 0, sq = 0;
        for (int64_t i = 0; i < count; ++i) {
          sum += x[static_cast<size_t>(base + i)];
          sq += x[static_cast<size_t>(base + i)] * x[static_cast<size_t>(base + i)];
        }
        const float m = sum / static_cast<float>(count);
        const float r = 1.0f / std::sqrt(sq / static_cast<float>(count) - m * m + static_cast<float>(eps));
        mean[static_cast<size_t>(n * group + k)] = m;
        rstd[static_cast<size_t>(n * group + k)] = r;
        for (int64_t c = k * cg; c < (k + 1) * cg; ++c) {
          const float scale = r * g[static_cast<size_t>(c)], bias = -scale * m + b[static_cast<size_t>(c)];
          const float inv = 1.0f / qs[static_cast<size_t>(nScale == 1 ? 0 : c)];
          for (int64_t i = 0; i < spatial; ++i) {
            const size_t at = static_cast<size_t>((n * C + c) * spatial + i);
            const float v = x[at] * scale + bias;
            y[at] = v / (1.0f + std::exp(-v)) * inv;
          }
        }
      }
    }
    quantizeDense(ACL_FLOAT16, y);  // the kernel casts to fp16 before int8
    std::vector<int64_t> q(y.size());
    for (size_t i = 0; i < y.size(); ++i)
      q[i] = static_cast<int64_t>(std::nearbyint(std::min(127.0f, std::max(-128.0f, y[i]))));
    storeDense(o[0], q.data());
    storeDense(o[1], mean.data());
    storeDense(o[2], rstd.data());
  };
  inst->attrs = fmt::format("group={}, eps={}", group, eps);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnGroupNormSiluQuantGetWorkspaceSize(
    const aclTensor* self, const aclTensor* gammaOptional, const aclTensor* betaOptional,
    const aclTensor* quantScale, int64_t group, double eps, bool activateSilu, aclTensor* out,
    aclTensor* meanOut, aclTensor* rstdOut, uint64_t* ws, aclOpExecutor** ex) {
  return build("aclnnGroupNormSiluQuantGetWorkspaceSize", self, gammaOptional, betaOptional, quantScale,
               group, eps, activateSilu, out, meanOut, rstdOut, ws, ex);
}
NPUSIM_ACLNN_PHASE2(GroupNormSiluQuant)
