// Layer-norm gradients on the norm engine (norm_op.h). With xhat = (x - mean) * rstd from the
// saved statistics and g = gamma (ones when absent), every one is
//   dx = rstd * (dy*g - mean(dy*g) - xhat * mean(dy*g*xhat)), dgamma = sum dy*xhat, dbeta = sum dy
// (sums over the rows), with the variant's x and dy:
//  - aclnnLayerNormBackward (ops-nn norm/layer_norm_grad_v3): outputMask picks the outputs.
//  - aclnnLayerNormalizationGrad (experimental/norm/layer_normalization_grad): all three.
//  - aclnnAddLayerNormGrad (norm/add_layer_norm_grad): x = x1 + x2, dx += dsumOptional.
//  - aclnnDeepNormGrad (norm/deep_norm_grad): x = alpha * x + gx; dgx = dx above, dx = alpha * dgx.
//  - aclnnAdaLayerNormBackward (norm/ada_layer_norm_grad): out = ln * (1 + scale) + shift with
//    ln = xhat * w + b: dshift = sum_S dy, dscale = sum_S dy * ln, then the above with
//    dy * (1 + scale).
// Data fp32, fp16 or bf16; statistics one value per row. Computed in fp64.
#include <fmt/format.h>

#include "aclnnop/aclnn_ada_layer_norm_backward.h"
#include "aclnnop/aclnn_add_layer_norm_grad.h"
#include "aclnnop/aclnn_deep_norm_grad.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_layer_normalization_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/norm_op.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const OpInfo kBackward{"aclnnLayerNormBackward", ExecUnit::kVector, kNormFloats,
                       "dx = rstd*(dy*w - mean(dy*w) - xhat*mean(dy*w*xhat)); dw = sum dy*xhat; db = sum dy"};
const OpInfo kGradExp{"aclnnLayerNormalizationGrad", ExecUnit::kVector, kNormFloats, kBackward.formula};
const OpInfo kAddGrad{"aclnnAddLayerNormGrad", ExecUnit::kVector, kNormFloats,
                      "x = x1 + x2; layer-norm backward; dx += dsum"};
const OpInfo kDeepGrad{"aclnnDeepNormGrad", ExecUnit::kVector, kNormFloats,
                       "x = alpha*x + gx; dgx = layer-norm backward; dx = alpha * dgx"};
const OpInfo kAdaGrad{"aclnnAdaLayerNormBackward", ExecUnit::kVector, kNormFloats,
                      "dshift = sum dy; dscale = sum dy*ln; layer-norm backward of dy*(1+scale)"};
const OpRegistrar kRegs[] = {OpRegistrar(kBackward), OpRegistrar(kGradExp), OpRegistrar(kAddGrad),
                             OpRegistrar(kDeepGrad), OpRegistrar(kAdaGrad)};

struct GradArgs {
  NormArg dy, x, x2, mean, rstd, gamma, beta, dsum, scale, shift;
  NormArg dx, dx2, dgamma, dbeta, dscale, dshift;
  size_t normDims = 0;  // 0: gamma's rank
  double alpha = 1.0;
};

int32_t layerGrad(const char* api, const OpInfo& info, const GradArgs& a, uint64_t* workspaceSize,
                  aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNormArgs(api, {a.dy, a.x, a.x2, a.mean, a.rstd, a.gamma, a.beta, a.dsum, a.scale, a.shift,
                                   a.dx, a.dx2, a.dgamma, a.dbeta, a.dscale, a.dshift});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, info,
                           {a.dy, a.x, a.x2, a.mean, a.rstd, a.gamma, a.beta, a.dsum, a.scale, a.shift, a.dx,
                            a.dx2, a.dgamma, a.dbeta, a.dscale, a.dshift})) != kSuccess) {
    return st;
  }
  if ((st = checkSameType(api, {a.dy, a.x, a.x2, a.dsum, a.dx, a.dx2})) != kSuccess) return st;
  const std::vector<int64_t>& xs = a.x.t->desc.shape;
  size_t normDims = a.normDims;
  if (normDims == 0) {
    if (a.gamma.t == nullptr)
      return fail(api, kErrParamNullptr, fmt::format("{} must not be null", a.gamma.name));
    if ((st = checkTrailing(api, a.gamma, xs)) != kSuccess) return st;
    normDims = a.gamma.t->desc.shape.size();
  }
  if (normDims > xs.size() || normDims == 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} normalised dimensions do not fit {} shape {}", normDims, a.x.name, shapeString(xs)));
  }
  const std::vector<int64_t> ns(xs.end() - static_cast<std::ptrdiff_t>(normDims), xs.end());
  const int64_t n = dimProduct(ns, 0, ns.size()), rows = n == 0 ? 0 : a.x.t->desc.numel() / n;
  for (const NormArg& t : {a.dy, a.x2, a.dsum, a.dx, a.dx2}) {
    if ((st = checkArgShape(api, t, xs)) != kSuccess) return st;
  }
  for (const NormArg& t : {a.gamma, a.beta, a.dgamma, a.dbeta}) {
    if ((st = checkArgShape(api, t, ns)) != kSuccess) return st;
  }
  for (const NormArg& t : {a.mean, a.rstd}) {
    if ((st = checkArgNumel(api, t, rows)) != kSuccess) return st;
  }
  int64_t perScale = 1;
  if (a.scale.t != nullptr) {
    const int64_t sn = a.scale.t->desc.numel();
    if (n == 0 || sn == 0 || sn % n != 0 || rows % (sn / n) != 0 || a.scale.t->desc.shape.back() != n) {
      return fail(api, kErrParamInvalid,
                  fmt::format("scale {} must be [B, H] or [B, 1, H] for x {}",
                              shapeString(a.scale.t->desc.shape), shapeString(xs)));
    }
    for (const NormArg& t : {a.shift, a.dscale, a.dshift}) {
      if ((st = checkArgShape(api, t, a.scale.t->desc.shape)) != kSuccess) return st;
    }
    perScale = rows / (sn / n);
  }
  const double alpha = a.alpha;
  const bool ada = a.scale.t != nullptr;
  auto kernel = [=](const NormIo& io) {
    const size_t un = static_cast<size_t>(n);
    std::vector<double> x = io.load("x"), dy = io.load("dy");
    if (io.hasIn("x2")) {
      const std::vector<double> x2 = io.load("x2");
      for (size_t i = 0; i < x.size(); ++i) x[i] = alpha * x[i] + x2[i];
    }
    const std::vector<double> mean = io.load("mean"), rstd = io.load("rstd");
    const std::vector<double> g = io.loadOr("gamma", un, 1.0);
    if (ada) {
      const std::vector<double> sc = io.load("scale"), b = io.loadOr("beta", un, 0.0);
      std::vector<double> dsc(sc.size(), 0.0), dsh(sc.size(), 0.0);
      for (size_t r = 0; r < static_cast<size_t>(rows); ++r) {
        const size_t ai = r / static_cast<size_t>(perScale) * un;
        for (size_t i = 0; i < un; ++i) {
          const size_t k = r * un + i;
          const double ln = (x[k] - mean[r]) * rstd[r] * g[i] + b[i];
          dsh[ai + i] += dy[k];
          dsc[ai + i] += dy[k] * ln;
          dy[k] *= 1.0 + sc[ai + i];
        }
      }
      io.store("dscale", dsc);
      io.store("dshift", dsh);
    }
    std::vector<double> dx, dg, db;
    layerNormBackwardRows(dy, x, mean, rstd, g, n, &dx, &dg, &db);
    if (io.hasIn("dsum")) {
      const std::vector<double> ds = io.load("dsum");
      for (size_t i = 0; i < dx.size(); ++i) dx[i] += ds[i];
    }
    io.store("dx2", dx);
    if (alpha != 1.0) {
      for (double& v : dx) v *= alpha;
    }
    io.store("dx", dx);
    io.store("dgamma", dg);
    io.store("dbeta", db);
  };
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), kernel, 4);
  inst->input("dy", a.dy.t);
  inst->input("x", a.x.t);
  inst->input("x2", a.x2.t);
  inst->input("mean", a.mean.t);
  inst->input("rstd", a.rstd.t);
  inst->input("gamma", a.gamma.t);
  inst->input("beta", a.beta.t);
  inst->input("dsum", a.dsum.t);
  inst->input("scale", a.scale.t);
  inst->output("dx", a.dx.t);
  inst->output("dx2", a.dx2.t);
  inst->output("dgamma", a.dgamma.t);
  inst->output("dbeta", a.dbeta.t);
  inst->output("dscale", a.dscale.t);
  inst->output("dshift", a.dshift.t);
  if (alpha != 1.0) inst->attrs = fmt::format("alpha={}", alpha);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

const NormArg kNone{"", nullptr, true};

// The normalised dimensions named by normalizedShape: 161002 unless they are x's trailing ones.
int32_t normalizedDims(const char* api, const aclTensor* x, const aclIntArray* normalizedShape,
                       size_t* dims) {
  const std::vector<int64_t>& ns = normalizedShape->values;
  const std::vector<int64_t>& xs = x->desc.shape;
  bool ok = !ns.empty() && ns.size() <= xs.size();
  for (size_t i = 0; ok && i < ns.size(); ++i) ok = ns[i] == xs[xs.size() - ns.size() + i];
  if (!ok) {
    return fail(api, kErrParamInvalid,
                fmt::format("normalizedShape {} must equal the trailing dimensions of input {}",
                            shapeString(ns), shapeString(xs)));
  }
  *dims = ns.size();
  return kSuccess;
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::GradArgs;
using npusim::aclnn::kNone;
using npusim::aclnn::NormArg;

extern "C" aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* mean, const aclTensor* rstd, const aclTensor* weightOptional,
    const aclTensor* biasOptional, const aclBoolArray* outputMask, aclTensor* gradInputOut,
    aclTensor* gradWeightOut, aclTensor* gradBiasOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnLayerNormBackwardGetWorkspaceSize";
  if (normalizedShape == nullptr || input == nullptr) {
    return fail(api, kErrParamNullptr, "input and normalizedShape must not be null");
  }
  bool mask[3];
  if (int32_t st = readOutputMask(api, outputMask, mask); st != kSuccess) return st;
  const bool m0 = mask[0], m1 = mask[1], m2 = mask[2];
  GradArgs a{{"gradOut", gradOut},
             {"input", input},
             kNone,
             {"mean", mean},
             {"rstd", rstd},
             {"weightOptional", weightOptional, true},
             {"biasOptional", biasOptional, true},
             kNone,
             kNone,
             kNone,
             {"gradInputOut", m0 ? gradInputOut : nullptr, !m0},
             kNone,
             {"gradWeightOut", m1 ? gradWeightOut : nullptr, !m1},
             {"gradBiasOut", m2 ? gradBiasOut : nullptr, !m2},
             kNone,
             kNone};
  if (int32_t st = normalizedDims(api, input, normalizedShape, &a.normDims); st != kSuccess) return st;
  return layerGrad(api, kBackward, a, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnLayerNormalizationGradGetWorkspaceSize(
    const aclTensor* dy, const aclTensor* x, const aclTensor* gamma, const aclTensor* mean,
    const aclTensor* rstd, const aclTensor* dx, const aclTensor* dgamma, const aclTensor* dbeta,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  GradArgs a{
      {"dy", dy}, {"x", x}, kNone,      {"mean", mean}, {"rstd", rstd},     {"gamma", gamma}, kNone, kNone,
      kNone,      kNone,    {"dx", dx}, kNone,          {"dgamma", dgamma}, {"dbeta", dbeta}, kNone, kNone};
  return layerGrad("aclnnLayerNormalizationGradGetWorkspaceSize", npusim::aclnn::kGradExp, a, workspaceSize,
                   executor);
}

extern "C" aclnnStatus aclnnAddLayerNormGradGetWorkspaceSize(
    const aclTensor* dy, const aclTensor* x1, const aclTensor* x2, const aclTensor* rstd,
    const aclTensor* mean, const aclTensor* gamma, const aclTensor* dsumOptional, const aclTensor* dxOut,
    const aclTensor* dgammaOut, const aclTensor* dbetaOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  GradArgs a{{"dy", dy},
             {"x1", x1},
             {"x2", x2},
             {"mean", mean},
             {"rstd", rstd},
             {"gamma", gamma},
             kNone,
             {"dsumOptional", dsumOptional, true},
             kNone,
             kNone,
             {"dxOut", dxOut},
             kNone,
             {"dgammaOut", dgammaOut},
             {"dbetaOut", dbetaOut},
             kNone,
             kNone};
  return layerGrad("aclnnAddLayerNormGradGetWorkspaceSize", npusim::aclnn::kAddGrad, a, workspaceSize,
                   executor);
}

extern "C" aclnnStatus aclnnDeepNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x,
                                                         const aclTensor* gx, const aclTensor* gamma,
                                                         const aclTensor* mean, const aclTensor* rstd,
                                                         double alpha, const aclTensor* dxOut,
                                                         const aclTensor* dgxOut, const aclTensor* dbetaOut,
                                                         const aclTensor* dgammaOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  GradArgs a{{"dy", dy},
             {"x", x},
             {"gx", gx},
             {"mean", mean},
             {"rstd", rstd},
             {"gamma", gamma},
             kNone,
             kNone,
             kNone,
             kNone,
             {"dxOut", dxOut},
             {"dgxOut", dgxOut},
             {"dgammaOut", dgammaOut},
             {"dbetaOut", dbetaOut},
             kNone,
             kNone};
  a.alpha = alpha;
  return layerGrad("aclnnDeepNormGradGetWorkspaceSize", npusim::aclnn::kDeepGrad, a, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAdaLayerNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* rstd, const aclTensor* mean, const aclTensor* scale, const aclTensor* shift,
    const aclTensor* weightOptional, const aclTensor* biasOptional, aclTensor* gradInputOut,
    aclTensor* gradScaleOut, aclTensor* gradShiftOut, aclTensor* gradWeightOut, aclTensor* gradBiasOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnAdaLayerNormBackwardGetWorkspaceSize";
  if (normalizedShape == nullptr || input == nullptr) {
    return fail(api, kErrParamNullptr, "input and normalizedShape must not be null");
  }
  GradArgs a{{"gradOut", gradOut},
             {"input", input},
             kNone,
             {"mean", mean},
             {"rstd", rstd},
             {"weightOptional", weightOptional, true},
             {"biasOptional", biasOptional, true},
             kNone,
             {"scale", scale},
             {"shift", shift},
             {"gradInputOut", gradInputOut, true},
             kNone,
             {"gradWeightOut", gradWeightOut, true},
             {"gradBiasOut", gradBiasOut, true},
             {"gradScaleOut", gradScaleOut, true},
             {"gradShiftOut", gradShiftOut, true}};
  if (int32_t st = normalizedDims(api, input, normalizedShape, &a.normDims); st != kSuccess) return st;
  return layerGrad(api, kAdaGrad, a, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(LayerNormBackward)
NPUSIM_ACLNN_PHASE2(LayerNormalizationGrad)
NPUSIM_ACLNN_PHASE2(AddLayerNormGrad)
NPUSIM_ACLNN_PHASE2(DeepNormGrad)
NPUSIM_ACLNN_PHASE2(AdaLayerNormBackward)
