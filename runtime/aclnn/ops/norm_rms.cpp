// The RMS norms on the norm engine (norm_op.h): over the trailing dimensions gamma covers,
// rstd = 1 / sqrt(mean(x^2) + epsilon) and y = x * rstd * gamma.
//  - aclnnAddRmsNorm (ops-nn norm/add_rms_norm): x = x1 + x2 first, written to xOut.
//  - aclnnInplaceAddRmsNorm (norm/inplace_add_rms_norm): y into x1Ref, x into x2Ref.
//  - aclnnFusedAddRmsNorm (experimental/norm/fused_add_rms_norm): x = x1 * scale + x2.
//  - aclnnAddRmsNormCast (norm/add_rms_norm_cast): y in fp32 (y1Out) and in x1's type (y2Out).
//  - aclnnGemmaRmsNorm (norm/gemma_rms_norm): y = x * rstd * (1 + gamma).
//  - aclnnRmsNormGrad (norm/rms_norm_grad): dx = rstd * (dy*g - x*rstd * mean(dy*g*x*rstd)),
//    dgamma = sum over rows of dy * x * rstd.
// Data tensors fp32, fp16 or bf16, one type; rstd fp32 with one value per row. Computed in fp64,
// x (the sum) rounded to its type before the norm as the kernels keep it.
#include <fmt/format.h>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_add_rms_norm_cast.h"
#include "aclnnop/aclnn_fused_add_rms_norm.h"
#include "aclnnop/aclnn_gemma_rms_norm.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/norm_op.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const OpInfo kAdd{"aclnnAddRmsNorm", ExecUnit::kVector, kNormFloats,
                  "x = x1 + x2; y = x / sqrt(mean(x^2) + eps) * gamma"};
const OpInfo kInplace{"aclnnInplaceAddRmsNorm", ExecUnit::kVector, kNormFloats,
                      "x2Ref = x1Ref + x2Ref; x1Ref = x2Ref / sqrt(mean(x2Ref^2) + eps) * gamma"};
const OpInfo kFused{"aclnnFusedAddRmsNorm", ExecUnit::kVector, kNormFloats,
                    "x = x1 * scale + x2; y = x / sqrt(mean(x^2) + eps) * gamma"};
const OpInfo kCast{"aclnnAddRmsNormCast", ExecUnit::kVector, kNormFloats,
                   "x = x1 + x2; y1 = x / sqrt(mean(x^2) + eps) * gamma (fp32); y2 = cast(y1)"};
const OpInfo kGemma{"aclnnGemmaRmsNorm", ExecUnit::kVector, kNormFloats,
                    "y = x / sqrt(mean(x^2) + eps) * (1 + gamma)"};
const OpInfo kGrad{"aclnnRmsNormGrad", ExecUnit::kVector, kNormFloats,
                   "dx = rstd * (dy*g - x*rstd*mean(dy*g*x*rstd)); dgamma = sum(dy * x * rstd)"};
const OpRegistrar kRegs[] = {OpRegistrar(kAdd),  OpRegistrar(kInplace), OpRegistrar(kFused),
                             OpRegistrar(kCast), OpRegistrar(kGemma),   OpRegistrar(kGrad)};

// The arguments of the forward family; absent ones are null.
struct RmsArgs {
  const aclTensor *x1, *x2, *gamma, *yOut, *y2Out, *rstdOut, *xOut;
  double epsilon = 1e-6, scale = 1.0, gammaOffset = 0.0;
  bool inplace = false;
};

// Rounds v to what dtype holds (the sum x as written to xOut is what the norm reads).
void roundTo(aclDataType dt, std::vector<double>& v) {
  std::vector<float> f(v.begin(), v.end());
  quantizeDense(dt, f);
  v.assign(f.begin(), f.end());
}

int32_t rmsForward(const char* api, const OpInfo& info, const RmsArgs& a, uint64_t* workspaceSize,
                   aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  const bool hasX2 = a.x2 != nullptr || a.inplace;
  const NormArg x1{a.inplace ? "x1Ref" : "x1", a.x1}, x2{a.inplace ? "x2Ref" : "x2", a.x2, !hasX2},
      gamma{"gamma", a.gamma}, y{a.y2Out ? "y1Out" : "yOut", a.yOut, a.inplace},
      y2{"y2Out", a.y2Out, a.y2Out == nullptr}, rstd{"rstdOut", a.rstdOut},
      xo{"xOut", a.xOut, a.xOut == nullptr};
  int32_t st = checkNormArgs(api, {x1, x2, gamma, y, y2, rstd, xo});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, info, {x1, x2, gamma, y, y2, xo})) != kSuccess) return st;
  if ((st = checkSameType(api, {x1, x2, gamma, y2, xo})) != kSuccess) return st;
  if ((st = checkTypeIn(api, rstd, {ACL_FLOAT})) != kSuccess) return st;
  if (a.y2Out != nullptr && (st = checkTypeIn(api, y, {ACL_FLOAT})) != kSuccess) return st;
  if (a.y2Out == nullptr && (st = checkSameType(api, {x1, y})) != kSuccess) return st;
  const std::vector<int64_t>& xs = a.x1->desc.shape;
  if ((st = checkTrailing(api, gamma, xs)) != kSuccess) return st;
  for (const NormArg& t : {x2, y, y2, xo}) {
    if ((st = checkArgShape(api, t, xs)) != kSuccess) return st;
  }
  const int64_t n = a.gamma->desc.numel(), rows = n == 0 ? 0 : a.x1->desc.numel() / n;
  if ((st = checkArgNumel(api, rstd, rows)) != kSuccess) return st;

  const aclDataType xt = a.x1->desc.dtype;
  const double eps = a.epsilon, scale = a.scale, g0 = a.gammaOffset;
  const bool inplace = a.inplace;
  auto kernel = [=](const NormIo& io) {
    std::vector<double> x = io.load("x1");
    if (io.hasIn("x2")) {
      const std::vector<double> x2v = io.load("x2");
      for (size_t i = 0; i < x.size(); ++i) x[i] = x[i] * scale + x2v[i];
      roundTo(xt, x);
    }
    const std::vector<double> g = io.load("gamma");
    std::vector<double> y(x.size()), rs(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
      const double* p = x.data() + r * n;
      rs[static_cast<size_t>(r)] = rowStats(p, n, eps, false).rstd;
      for (int64_t i = 0; i < n; ++i)
        y[static_cast<size_t>(r * n + i)] =
            p[i] * rs[static_cast<size_t>(r)] * (g0 + g[static_cast<size_t>(i)]);
    }
    io.store(inplace ? "x1Ref" : "yOut", y);
    io.store("y2Out", y);
    io.store("rstdOut", rs);
    io.store(inplace ? "x2Ref" : "xOut", x);
  };
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), kernel, 3);
  inst->input("x1", a.x1);
  inst->input("x2", a.x2);
  inst->input("gamma", a.gamma);
  if (inplace) {
    inst->output("x1Ref", a.x1, 0);
    inst->output("x2Ref", a.x2, 1);
  }
  inst->output("yOut", a.inplace ? nullptr : a.yOut);
  inst->output("y2Out", a.y2Out);
  inst->output("rstdOut", a.rstdOut);
  inst->output("xOut", a.xOut);
  inst->attrs =
      a.scale != 1.0 ? fmt::format("epsilon={}, scale={}", eps, scale) : fmt::format("epsilon={}", eps);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::RmsArgs;

extern "C" aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                       const aclTensor* gamma, double epsilon,
                                                       aclTensor* yOut, aclTensor* rstdOut, aclTensor* xOut,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  RmsArgs a{x1, x2, gamma, yOut, nullptr, rstdOut, xOut};
  a.epsilon = epsilon;
  if (xOut == nullptr) {
    return npusim::aclnn::fail("aclnnAddRmsNormGetWorkspaceSize", npusim::aclnn::kErrParamNullptr,
                               "xOut must not be null");
  }
  return rmsForward("aclnnAddRmsNormGetWorkspaceSize", npusim::aclnn::kAdd, a, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnInplaceAddRmsNormGetWorkspaceSize(aclTensor* x1Ref, aclTensor* x2Ref,
                                                              const aclTensor* gamma, double epsilon,
                                                              const aclTensor* rstdOut,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  RmsArgs a{x1Ref, x2Ref, gamma, nullptr, nullptr, rstdOut, nullptr};
  a.epsilon = epsilon;
  a.inplace = true;
  return rmsForward("aclnnInplaceAddRmsNormGetWorkspaceSize", npusim::aclnn::kInplace, a, workspaceSize,
                    executor);
}

extern "C" aclnnStatus aclnnFusedAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                            const aclTensor* gamma, double epsilon,
                                                            double scale, const aclTensor* yOut,
                                                            const aclTensor* rstdOut, const aclTensor* xOut,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  RmsArgs a{x1, x2, gamma, yOut, nullptr, rstdOut, xOut};
  a.epsilon = epsilon;
  a.scale = scale;
  if (xOut == nullptr) {
    return npusim::aclnn::fail("aclnnFusedAddRmsNormGetWorkspaceSize", npusim::aclnn::kErrParamNullptr,
                               "xOut must not be null");
  }
  return rmsForward("aclnnFusedAddRmsNormGetWorkspaceSize", npusim::aclnn::kFused, a, workspaceSize,
                    executor);
}

extern "C" aclnnStatus aclnnAddRmsNormCastGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                           const aclTensor* gamma, double epsilon,
                                                           const aclTensor* y1Out, const aclTensor* y2Out,
                                                           const aclTensor* rstdOut, const aclTensor* xOut,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  const char* api = "aclnnAddRmsNormCastGetWorkspaceSize";
  if (y2Out == nullptr || xOut == nullptr) {
    return npusim::aclnn::fail(api, npusim::aclnn::kErrParamNullptr,
                               fmt::format("{} must not be null", y2Out == nullptr ? "y2Out" : "xOut"));
  }
  RmsArgs a{x1, x2, gamma, y1Out, y2Out, rstdOut, xOut};
  a.epsilon = epsilon;
  return rmsForward(api, npusim::aclnn::kCast, a, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGemmaRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma,
                                                         double epsilon, const aclTensor* yOut,
                                                         const aclTensor* rstdOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  RmsArgs a{x, nullptr, gamma, yOut, nullptr, rstdOut, nullptr};
  a.epsilon = epsilon;
  a.gammaOffset = 1.0;
  return rmsForward("aclnnGemmaRmsNormGetWorkspaceSize", npusim::aclnn::kGemma, a, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnRmsNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x,
                                                        const aclTensor* rstd, const aclTensor* gamma,
                                                        const aclTensor* dxOut, const aclTensor* dgammaOut,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnRmsNormGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg dyA{"dy", dy}, xA{"x", x}, rA{"rstd", rstd}, gA{"gamma", gamma}, dxA{"dxOut", dxOut},
      dgA{"dgammaOut", dgammaOut};
  int32_t st = checkNormArgs(api, {dyA, xA, rA, gA, dxA, dgA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kGrad, {dyA, xA, gA, dxA})) != kSuccess) return st;
  if ((st = checkSameType(api, {dyA, xA, dxA})) != kSuccess) return st;
  if ((st = checkTypeIn(api, rA, {ACL_FLOAT})) != kSuccess) return st;
  if ((st = checkTypeIn(api, dgA, {ACL_FLOAT})) != kSuccess) return st;
  const std::vector<int64_t>& xs = x->desc.shape;
  if ((st = checkTrailing(api, gA, xs)) != kSuccess) return st;
  if ((st = checkArgShape(api, dyA, xs)) != kSuccess) return st;
  if ((st = checkArgShape(api, dxA, xs)) != kSuccess) return st;
  if ((st = checkArgShape(api, dgA, gamma->desc.shape)) != kSuccess) return st;
  const int64_t n = gamma->desc.numel(), rows = n == 0 ? 0 : x->desc.numel() / n;
  if ((st = checkArgNumel(api, rA, rows)) != kSuccess) return st;
  auto kernel = [n, rows](const NormIo& io) {
    const std::vector<double> d = io.load("dy"), xv = io.load("x"), rs = io.load("rstd"),
                              g = io.load("gamma");
    std::vector<double> dx(xv.size()), dg(static_cast<size_t>(n), 0.0);
    for (int64_t r = 0; r < rows; ++r) {
      const size_t base = static_cast<size_t>(r * n);
      const double s = rs[static_cast<size_t>(r)];
      double m = 0;
      for (int64_t i = 0; i < n; ++i) {
        const size_t k = base + static_cast<size_t>(i);
        m += d[k] * g[static_cast<size_t>(i)] * xv[k] * s;
        dg[static_cast<size_t>(i)] += d[k] * xv[k] * s;
      }
      m /= static_cast<double>(n);
      for (int64_t i = 0; i < n; ++i) {
        const size_t k = base + static_cast<size_t>(i);
        dx[k] = (d[k] * g[static_cast<size_t>(i)] - xv[k] * s * m) * s;
      }
    }
    io.store("dxOut", dx);
    io.store("dgammaOut", dg);
  };
  auto inst = std::make_unique<NormInstance>("aclnnRmsNormGrad", kernel, 4);
  for (auto [name, t] : {std::pair{"dy", dy}, {"x", x}, {"rstd", rstd}, {"gamma", gamma}})
    inst->input(name, t);
  inst->output("dxOut", dxOut);
  inst->output("dgammaOut", dgammaOut);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(AddRmsNorm)
NPUSIM_ACLNN_PHASE2(InplaceAddRmsNorm)
NPUSIM_ACLNN_PHASE2(FusedAddRmsNorm)
NPUSIM_ACLNN_PHASE2(AddRmsNormCast)
NPUSIM_ACLNN_PHASE2(GemmaRmsNorm)
NPUSIM_ACLNN_PHASE2(RmsNormGrad)
