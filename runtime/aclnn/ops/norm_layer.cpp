// The layer norms with an add or an adaptive affine, on the norm engine (norm_op.h). Over the
// trailing dimensions gamma covers: mean = E[x], rstd = 1/sqrt(Var[x] + eps) (biased) and
// y = (x - mean) * rstd * gamma + beta.
//  - aclnnAddLayerNorm (ops-nn norm/add_layer_norm): x = x1 + x2 + biasOptional, written to xOut
//    when additionalOutput.
//  - aclnnDeepNorm (norm/deep_norm): x = alpha * x + gx.
//  - aclnnAdaLayerNorm, aclnnAdaLayerNormV2 (norm/ada_layer_norm, _v2): out = LayerNorm(x) *
//    (1 + scale) + shift, scale and shift [B, H] (or [B, 1, H]) for x [B, S, H]; V2 also writes
//    the optional mean and rstd.
// Data tensors fp32, fp16 or bf16 (gamma/beta/weight/bias x's type or fp32); statistics fp32
// (x's type allowed for Ada V2). Computed in fp64, a sum of inputs rounded to x's type first.
#include <fmt/format.h>

#include <algorithm>

#include "aclnnop/aclnn_ada_layer_norm.h"
#include "aclnnop/aclnn_ada_layer_norm_v2.h"
#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_deep_norm.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/norm_op.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const OpInfo kAdd{"aclnnAddLayerNorm", ExecUnit::kVector, kNormFloats,
                  "x = x1 + x2 + bias; y = (x - mean) / sqrt(var + eps) * gamma + beta"};
const OpInfo kDeep{"aclnnDeepNorm", ExecUnit::kVector, kNormFloats,
                   "x = alpha * x + gx; y = (x - mean) / sqrt(var + eps) * gamma + beta"};
const OpInfo kAda{"aclnnAdaLayerNorm", ExecUnit::kVector, kNormFloats,
                  "out = ((x - mean) / sqrt(var + eps) * weight + bias) * (1 + scale) + shift"};
const OpInfo kAdaV2{"aclnnAdaLayerNormV2", ExecUnit::kVector, kNormFloats,
                    "out = ((x - mean) / sqrt(var + eps) * weight + bias) * (1 + scale) + shift; mean, rstd"};
const OpRegistrar kRegs[] = {OpRegistrar(kAdd), OpRegistrar(kDeep), OpRegistrar(kAda), OpRegistrar(kAdaV2)};

// One forward call: x = xCoef * x + sum of `adds` (an add may be a trailing broadcast such as
// a bias), then the layer norm over the last `normDims` dimensions.
struct LayerArgs {
  NormArg x;
  std::vector<NormArg> adds;
  NormArg gamma, beta, scale, shift, y, mean, rstd, xOut;
  double eps = 1e-5, xCoef = 1.0;
  bool statsFp32Only = true;
};

int32_t layerForward(const char* api, const OpInfo& info, const LayerArgs& a, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  const NormArg add0 = a.adds.size() > 0 ? a.adds[0] : NormArg{"x2", nullptr, true};
  const NormArg add1 = a.adds.size() > 1 ? a.adds[1] : NormArg{"bias", nullptr, true};
  int32_t st =
      checkNormArgs(api, {a.x, add0, add1, a.gamma, a.beta, a.scale, a.shift, a.y, a.mean, a.rstd, a.xOut});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(
           api, info, {a.x, add0, add1, a.gamma, a.beta, a.scale, a.shift, a.y, a.mean, a.rstd, a.xOut})) !=
      kSuccess) {
    return st;
  }
  if ((st = checkSameType(api, {a.x, add0, add1, a.scale, a.shift, a.y, a.xOut})) != kSuccess) return st;
  if ((st = checkSameType(api, {a.gamma, a.beta})) != kSuccess) return st;
  const aclDataType xt = a.x.t->desc.dtype;
  const NormArg& affine = a.gamma.t ? a.gamma : a.beta;
  if (affine.t != nullptr && affine.t->desc.dtype != xt && affine.t->desc.dtype != ACL_FLOAT) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} type {} must be {} or fp32", affine.name, dtypeName(affine.t->desc.dtype),
                            dtypeName(xt)));
  }
  if (a.statsFp32Only) {
    for (const NormArg& s : {a.mean, a.rstd}) {
      if ((st = checkTypeIn(api, s, {ACL_FLOAT})) != kSuccess) return st;
    }
  }
  const std::vector<int64_t>& xs = a.x.t->desc.shape;
  // The normalised dimensions: gamma's (or, with neither gamma nor beta, the last one).
  size_t normDims = 1;
  if (affine.t != nullptr) {
    if ((st = checkTrailing(api, affine, xs)) != kSuccess) return st;
    normDims = affine.t->desc.shape.size();
    if ((st = checkArgShape(api, a.gamma.t ? a.beta : a.gamma, affine.t->desc.shape)) != kSuccess) return st;
  }
  if (xs.empty())
    return fail(api, kErrParamInvalid, fmt::format("{} must have at least one dimension", a.x.name));
  const int64_t n = dimProduct(xs, xs.size() - normDims, xs.size());
  const int64_t total = a.x.t->desc.numel(), rows = n == 0 ? 0 : total / n;
  if ((st = checkArgShape(api, add0, xs)) != kSuccess) return st;
  if (add1.t != nullptr && (st = checkTrailing(api, add1, xs)) != kSuccess) return st;
  for (const NormArg& t : {a.y, a.xOut}) {
    if ((st = checkArgShape(api, t, xs)) != kSuccess) return st;
  }
  for (const NormArg& t : {a.mean, a.rstd}) {
    if ((st = checkArgNumel(api, t, rows)) != kSuccess) return st;
  }
  // Ada: scale/shift hold one row of n per leading batch index (x [B, S, H] -> [B, H]).
  // Rows sharing one scale/shift row; without them all rows read the one row of zeros.
  int64_t perScale = std::max<int64_t>(rows, 1);
  if (a.scale.t != nullptr) {
    const int64_t sn = a.scale.t->desc.numel();
    if (xs.size() < 2 || n == 0 || sn == 0 || sn % n != 0 || rows % (sn / n) != 0 ||
        a.shift.t->desc.shape != a.scale.t->desc.shape || a.scale.t->desc.shape.back() != n) {
      return fail(api, kErrParamInvalid,
                  fmt::format("scale {} and shift {} must be [B, H] or [B, 1, H] for x {}",
                              shapeString(a.scale.t->desc.shape), shapeString(a.shift.t->desc.shape),
                              shapeString(xs)));
    }
    perScale = rows / (sn / n);
  }

  const double eps = a.eps, xCoef = a.xCoef;
  const bool rounds = add0.t != nullptr || xCoef != 1.0;
  const int64_t add1Size = add1.t ? add1.t->desc.numel() : 1;
  auto kernel = [=](const NormIo& io) {
    std::vector<double> x = io.load("x");
    if (io.hasIn("add0")) {
      const std::vector<double> v0 = io.load("add0"), v1 = io.loadOr("add1", 1, 0.0);
      for (size_t i = 0; i < x.size(); ++i)
        x[i] = xCoef * x[i] + v0[i] + v1[i % static_cast<size_t>(add1Size)];
    }
    if (rounds) {
      std::vector<float> f(x.begin(), x.end());
      quantizeDense(xt, f);
      x.assign(f.begin(), f.end());
    }
    const size_t un = static_cast<size_t>(n);
    const std::vector<double> g = io.loadOr("gamma", un, 1.0), b = io.loadOr("beta", un, 0.0);
    const std::vector<double> sc = io.loadOr("scale", un, 0.0), sh = io.loadOr("shift", un, 0.0);
    std::vector<double> y(x.size()), mean(static_cast<size_t>(rows)), rstd(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
      const size_t base = static_cast<size_t>(r) * un, ada = static_cast<size_t>(r / perScale) * un;
      const RowStats s = rowStats(x.data() + base, n, eps, true);
      mean[static_cast<size_t>(r)] = s.mean;
      rstd[static_cast<size_t>(r)] = s.rstd;
      for (size_t i = 0; i < un; ++i) {
        const double ln = (x[base + i] - s.mean) * s.rstd * g[i] + b[i];
        y[base + i] = ln * (1.0 + sc[ada + i]) + sh[ada + i];
      }
    }
    io.store("y", y);
    io.store("mean", mean);
    io.store("rstd", rstd);
    io.store("xOut", x);
  };
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), kernel, 4);
  inst->input("x", a.x.t);
  inst->input("add0", add0.t);
  inst->input("add1", add1.t);
  inst->input("gamma", a.gamma.t);
  inst->input("beta", a.beta.t);
  inst->input("scale", a.scale.t);
  inst->input("shift", a.shift.t);
  inst->output("y", a.y.t);
  inst->output("mean", a.mean.t);
  inst->output("rstd", a.rstd.t);
  inst->output("xOut", a.xOut.t);
  inst->attrs = xCoef != 1.0 ? fmt::format("eps={}, alpha={}", eps, xCoef) : fmt::format("eps={}", eps);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::LayerArgs;
using npusim::aclnn::NormArg;

extern "C" aclnnStatus aclnnAddLayerNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                         const aclTensor* gamma, const aclTensor* beta,
                                                         const aclTensor* biasOptional, double epsilon,
                                                         bool additionalOutput, const aclTensor* yOut,
                                                         const aclTensor* meanOut, const aclTensor* rstdOut,
                                                         const aclTensor* xOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  LayerArgs a{{"x1", x1},
              {{"x2", x2}, {"biasOptional", biasOptional, true}},
              {"gamma", gamma},
              {"beta", beta},
              {"scale", nullptr, true},
              {"shift", nullptr, true},
              {"yOut", yOut},
              {"meanOut", meanOut},
              {"rstdOut", rstdOut},
              {"xOut", additionalOutput ? xOut : nullptr, !additionalOutput}};
  a.eps = epsilon;
  return layerForward("aclnnAddLayerNormGetWorkspaceSize", npusim::aclnn::kAdd, a, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnDeepNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gx,
                                                     const aclTensor* beta, const aclTensor* gamma,
                                                     double alpha, double epsilon, const aclTensor* meanOut,
                                                     const aclTensor* rstdOut, const aclTensor* yOut,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  LayerArgs a{{"x", x},
              {{"gx", gx}},
              {"gamma", gamma},
              {"beta", beta},
              {"scale", nullptr, true},
              {"shift", nullptr, true},
              {"yOut", yOut},
              {"meanOut", meanOut},
              {"rstdOut", rstdOut},
              {"xOut", nullptr, true}};
  a.eps = epsilon;
  a.xCoef = alpha;
  return layerForward("aclnnDeepNormGetWorkspaceSize", npusim::aclnn::kDeep, a, workspaceSize, executor);
}

// Both Ada entry points: V1 is V2 without the statistics (its type rule is V2's too).
static aclnnStatus adaLayerNorm(const char* api, const npusim::aclnn::OpInfo& info, const aclTensor* x,
                                const aclTensor* scale, const aclTensor* shift,
                                const aclTensor* weightOptional, const aclTensor* biasOptional,
                                double epsilon, aclTensor* out, aclTensor* meanOut, aclTensor* rstdOut,
                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  LayerArgs a{{"x", x},
              {},
              {"weightOptional", weightOptional, true},
              {"biasOptional", biasOptional, true},
              {"scale", scale},
              {"shift", shift},
              {"out", out},
              {"meanOutOptional", meanOut, true},
              {"rstdOutOptional", rstdOut, true},
              {"xOut", nullptr, true}};
  a.eps = epsilon;
  a.statsFp32Only = false;
  return layerForward(api, info, a, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAdaLayerNormGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                         const aclTensor* shift,
                                                         const aclTensor* weightOptional,
                                                         const aclTensor* biasOptional, double epsilon,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return adaLayerNorm("aclnnAdaLayerNormGetWorkspaceSize", npusim::aclnn::kAda, x, scale, shift,
                      weightOptional, biasOptional, epsilon, out, nullptr, nullptr, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAdaLayerNormV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* scale, const aclTensor* shift, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double epsilon, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return adaLayerNorm("aclnnAdaLayerNormV2GetWorkspaceSize", npusim::aclnn::kAdaV2, x, scale, shift,
                      weightOptional, biasOptional, epsilon, out, meanOutOptional, rstdOutOptional,
                      workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(AddLayerNorm)
NPUSIM_ACLNN_PHASE2(DeepNorm)
NPUSIM_ACLNN_PHASE2(AdaLayerNorm)
NPUSIM_ACLNN_PHASE2(AdaLayerNormV2)
