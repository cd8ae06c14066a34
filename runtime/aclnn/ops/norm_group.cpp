// Group norms on the norm engine (norm_op.h). x is [N, C, *] (HxW the product of *); the C
// channels form `group` groups of C/group consecutive channels, and each (n, group) block of
// M = C/group * HxW elements is normalised: mean, rstd = 1/sqrt(Var + eps) (biased), then
// y = (x - mean) * rstd * gamma[c] + beta[c]; mean and rstd are [N, group].
//  - aclnnGroupNorm (ops-nn norm/group_norm), aclnnGroupNormSilu/V2 (norm/group_norm_silu: then
//    y * sigmoid(y), V2 when activateSilu), aclnnGroupNormSwish (norm/group_norm_swish: then
//    y * sigmoid(swishScale * y) when activateSwish).
//  - aclnnGroupNormBackward (norm/group_norm_grad): per block, dx = rstd * (dy*g -
//    mean(dy*g) - xhat * mean(dy*g*xhat)); dgamma[c] = sum dy*xhat, dbeta[c] = sum dy
//    (outputMask picks them); aclnnGroupNormSwishGrad (norm/group_norm_swish_grad) first takes
//    dy through the swish's derivative at y = xhat*gamma + beta.
//  - aclnnGroupNormalizationGrad (experimental/norm/group_normalization_grad): gamma has x's
//    shape, groups are x's first two dimensions, dx = rstd/M * gamma * (M*dy - s1 - xhat*s2)
//    with s1 = sum dy*gamma, s2 = sum dy*gamma*xhat, as its documentation defines.
// fp32, fp16, bf16; computed in fp64.
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_group_norm_silu.h"
#include "aclnnop/aclnn_group_norm_swish.h"
#include "aclnnop/aclnn_group_norm_swish_grad.h"
#include "aclnnop/aclnn_group_normalization_grad.h"
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

const OpInfo kGn{"aclnnGroupNorm", ExecUnit::kVector, kNormFloats,
                 "y = (x - mean_g) / sqrt(var_g + eps) * gamma + beta"};
const OpInfo kSilu{"aclnnGroupNormSilu", ExecUnit::kVector, kNormFloats, "y = silu(GroupNorm(x))"};
const OpInfo kSiluV2{"aclnnGroupNormSiluV2", ExecUnit::kVector, kNormFloats,
                     "y = GroupNorm(x), silu when activateSilu"};
const OpInfo kSwish{"aclnnGroupNormSwish", ExecUnit::kVector, kNormFloats,
                    "y = GroupNorm(x), then y * sigmoid(swishScale * y) when activateSwish"};
const OpInfo kBack{
    "aclnnGroupNormBackward", ExecUnit::kVector, kNormFloats,
    "dx = rstd*(dy*g - mean(dy*g) - xhat*mean(dy*g*xhat)); dgamma = sum dy*xhat; dbeta = sum dy"};
const OpInfo kSwishGrad{"aclnnGroupNormSwishGrad", ExecUnit::kVector, kNormFloats,
                        "group-norm backward of dy * swish'(xhat*gamma + beta)"};
const OpInfo kExpGrad{"aclnnGroupNormalizationGrad", ExecUnit::kVector, kNormFloats,
                      "dx = rstd/M * gamma * (M*dy - sum(dy*gamma) - xhat*sum(dy*gamma*xhat))"};
const OpRegistrar kRegs[] = {OpRegistrar(kGn),     OpRegistrar(kSilu), OpRegistrar(kSiluV2),
                             OpRegistrar(kSwish),  OpRegistrar(kBack), OpRegistrar(kSwishGrad),
                             OpRegistrar(kExpGrad)};

// The block structure of x: N samples, C channels of HxW elements, G groups.
struct Blocks {
  int64_t n = 0, c = 0, hw = 0, g = 1;
  int64_t perGroup() const { return c / g * hw; }
};

// 161002 unless x is [N, C, *] with the given N, C, HxW (negative: take x's) and C % G == 0.
int32_t groupBlocks(const char* api, const NormArg& x, int64_t n, int64_t c, int64_t hw, int64_t g,
                    Blocks* b) {
  const std::vector<int64_t>& xs = x.t->desc.shape;
  if (xs.size() < 2) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must have at least 2 dimensions, but is {}", x.name, shapeString(xs)));
  }
  b->n = xs[0];
  b->c = xs[1];
  b->hw = dimProduct(xs, 2, xs.size());
  b->g = g;
  if ((n >= 0 && n != b->n) || (c >= 0 && c != b->c) || (hw >= 0 && hw != b->hw)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("N={}, C={}, HxW={} do not describe {} shape {}", n, c, hw, x.name, shapeString(xs)));
  }
  if (g <= 0 || b->c % g != 0) {
    return fail(api, kErrParamInvalid, fmt::format("group {} must be positive and divide C={}", g, b->c));
  }
  return kSuccess;
}

double swish(double y, double s) { return y / (1.0 + std::exp(-s * y)); }
double swishDerivative(double y, double s) {
  const double sig = 1.0 / (1.0 + std::exp(-s * y));
  return sig + s * y * sig * (1.0 - sig);
}

// Forward: activation 0 none, otherwise y * sigmoid(act * y).
int32_t groupForward(const char* api, const OpInfo& info, const NormArg& x, const NormArg& gamma,
                     const NormArg& beta, const NormArg& y, const NormArg& mean, const NormArg& rstd,
                     int64_t n, int64_t c, int64_t hw, int64_t g, double eps, double act,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNormArgs(api, {x, gamma, beta, y, mean, rstd});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, info, {x, gamma, beta, y, mean, rstd})) != kSuccess) return st;
  if ((st = checkSameType(api, {x, y})) != kSuccess) return st;
  if ((st = checkSameType(api, {gamma, beta})) != kSuccess) return st;
  Blocks b;
  if ((st = groupBlocks(api, x, n, c, hw, g, &b)) != kSuccess) return st;
  if ((st = checkArgShape(api, y, x.t->desc.shape)) != kSuccess) return st;
  for (const NormArg& t : {gamma, beta}) {
    if ((st = checkArgShape(api, t, {b.c})) != kSuccess) return st;
  }
  for (const NormArg& t : {mean, rstd}) {
    if ((st = checkArgNumel(api, t, b.n * b.g)) != kSuccess) return st;
  }
  auto kernel = [b, eps, act](const NormIo& io) {
    std::vector<double> v = io.load("x");
    const size_t uc = static_cast<size_t>(b.c);
    const std::vector<double> ga = io.loadOr("gamma", uc, 1.0), be = io.loadOr("beta", uc, 0.0);
    const int64_t m = b.perGroup(), blocks = b.n * b.g;
    std::vector<double> mean(static_cast<size_t>(blocks)), rstd(static_cast<size_t>(blocks));
    for (int64_t k = 0; k < blocks; ++k) {
      double* p = v.data() + k * m;
      const RowStats s = rowStats(p, m, eps, true);
      mean[static_cast<size_t>(k)] = s.mean;
      rstd[static_cast<size_t>(k)] = s.rstd;
      for (int64_t i = 0; i < m; ++i) {
        const size_t ch = static_cast<size_t>((k % b.g) * (b.c / b.g) + i / b.hw);
        const double yv = (p[i] - s.mean) * s.rstd * ga[ch] + be[ch];
        p[i] = act != 0.0 ? swish(yv, act) : yv;
      }
    }
    io.store("y", v);
    io.store("mean", mean);
    io.store("rstd", rstd);
  };
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), kernel, act != 0.0 ? 5 : 4);
  inst->input("x", x.t);
  inst->input("gamma", gamma.t);
  inst->input("beta", beta.t);
  inst->output("y", y.t);
  inst->output("mean", mean.t);
  inst->output("rstd", rstd.t);
  inst->attrs = fmt::format("group={}, eps={}", g, eps);
  if (act != 0.0) inst->attrs += fmt::format(", swishScale={}", act);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

// Backward; `act` != 0 takes dy through the swish of y = xhat*gamma + beta first.
int32_t groupBackward(const char* api, const OpInfo& info, const NormArg& dy, const NormArg& x,
                      const NormArg& mean, const NormArg& rstd, const NormArg& gamma, const NormArg& beta,
                      const NormArg& dx, const NormArg& dgamma, const NormArg& dbeta, int64_t n, int64_t c,
                      int64_t hw, int64_t g, double act, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNormArgs(api, {dy, x, mean, rstd, gamma, beta, dx, dgamma, dbeta});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, info, {dy, x, mean, rstd, gamma, beta, dx, dgamma, dbeta})) != kSuccess)
    return st;
  if ((st = checkSameType(api, {dy, x, dx})) != kSuccess) return st;
  Blocks b;
  if ((st = groupBlocks(api, x, n, c, hw, g, &b)) != kSuccess) return st;
  for (const NormArg& t : {dy, dx}) {
    if ((st = checkArgShape(api, t, x.t->desc.shape)) != kSuccess) return st;
  }
  for (const NormArg& t : {gamma, beta, dgamma, dbeta}) {
    if ((st = checkArgShape(api, t, {b.c})) != kSuccess) return st;
  }
  for (const NormArg& t : {mean, rstd}) {
    if ((st = checkArgNumel(api, t, b.n * b.g)) != kSuccess) return st;
  }
  auto kernel = [b, act](const NormIo& io) {
    std::vector<double> d = io.load("dy");
    const std::vector<double> xv = io.load("x"), mean = io.load("mean"), rstd = io.load("rstd");
    const size_t uc = static_cast<size_t>(b.c);
    const std::vector<double> ga = io.loadOr("gamma", uc, 1.0), be = io.loadOr("beta", uc, 0.0);
    const int64_t m = b.perGroup(), blocks = b.n * b.g;
    std::vector<double> dx(xv.size()), dg(uc, 0.0), db(uc, 0.0);
    for (int64_t k = 0; k < blocks; ++k) {
      const size_t base = static_cast<size_t>(k * m), ks = static_cast<size_t>(k);
      auto channel = [&](int64_t i) { return static_cast<size_t>((k % b.g) * (b.c / b.g) + i / b.hw); };
      double s1 = 0, s2 = 0;
      for (int64_t i = 0; i < m; ++i) {
        const size_t e = base + static_cast<size_t>(i), ch = channel(i);
        const double xh = (xv[e] - mean[ks]) * rstd[ks];
        if (act != 0.0) d[e] *= swishDerivative(xh * ga[ch] + be[ch], act);
        s1 += d[e] * ga[ch];
        s2 += d[e] * ga[ch] * xh;
        dg[ch] += d[e] * xh;
        db[ch] += d[e];
      }
      s1 /= static_cast<double>(m);
      s2 /= static_cast<double>(m);
      for (int64_t i = 0; i < m; ++i) {
        const size_t e = base + static_cast<size_t>(i), ch = channel(i);
        const double xh = (xv[e] - mean[ks]) * rstd[ks];
        dx[e] = rstd[ks] * (d[e] * ga[ch] - s1 - xh * s2);
      }
    }
    io.store("dx", dx);
    io.store("dgamma", dg);
    io.store("dbeta", db);
  };
  auto inst = std::make_unique<NormInstance>(info.name.c_str(), kernel, 4);
  inst->input("dy", dy.t);
  inst->input("x", x.t);
  inst->input("mean", mean.t);
  inst->input("rstd", rstd.t);
  inst->input("gamma", gamma.t);
  inst->input("beta", beta.t);
  inst->output("dx", dx.t);
  inst->output("dgamma", dgamma.t);
  inst->output("dbeta", dbeta.t);
  inst->attrs = fmt::format("group={}", g);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

// dataFormatOptional: null or "NCHW"/"ND" (channels second); NHWC is not simulated.
int32_t checkDataFormat(const char* api, const char* fmtName) {
  if (fmtName == nullptr || std::strcmp(fmtName, "NCHW") == 0 || std::strcmp(fmtName, "ND") == 0)
    return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("dataFormatOptional \"{}\" is not supported (NCHW or ND: channels in dimension 1)",
                          fmtName));
}

}  // namespace
}  // namespace npusim::aclnn

using npusim::aclnn::NormArg;

extern "C" aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                      const aclTensor* beta, int64_t N, int64_t C,
                                                      int64_t HxW, int64_t group, double eps, aclTensor* out,
                                                      aclTensor* meanOut, aclTensor* rstdOut,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::groupForward("aclnnGroupNormGetWorkspaceSize", npusim::aclnn::kGn, {"self", self},
                                     {"gamma", gamma, true}, {"beta", beta, true}, {"out", out},
                                     {"meanOut", meanOut}, {"rstdOut", rstdOut}, N, C, HxW, group, eps, 0.0,
                                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupNormSiluGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                          const aclTensor* beta, int64_t group, double eps,
                                                          aclTensor* out, aclTensor* meanOut,
                                                          aclTensor* rstdOut, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return npusim::aclnn::groupForward("aclnnGroupNormSiluGetWorkspaceSize", npusim::aclnn::kSilu,
                                     {"self", self}, {"gamma", gamma, true}, {"beta", beta, true},
                                     {"out", out}, {"meanOut", meanOut}, {"rstdOut", rstdOut}, -1, -1, -1,
                                     group, eps, 1.0, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupNormSiluV2GetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                            const aclTensor* beta, int64_t group, double eps,
                                                            bool activateSilu, aclTensor* out,
                                                            aclTensor* meanOut, aclTensor* rstdOut,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return npusim::aclnn::groupForward("aclnnGroupNormSiluV2GetWorkspaceSize", npusim::aclnn::kSiluV2,
                                     {"self", self}, {"gamma", gamma, true}, {"beta", beta, true},
                                     {"out", out}, {"meanOut", meanOut}, {"rstdOut", rstdOut}, -1, -1, -1,
                                     group, eps, activateSilu ? 1.0 : 0.0, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupNormSwishGetWorkspaceSize(
    const aclTensor* x, const aclTensor* gamma, const aclTensor* beta, int64_t numGroups,
    char* dataFormatOptional, double eps, bool activateSwish, double swishScale, const aclTensor* yOut,
    const aclTensor* meanOut, const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnGroupNormSwishGetWorkspaceSize";
  if (int32_t st = npusim::aclnn::checkDataFormat(api, dataFormatOptional); st != 0) return st;
  if (activateSwish && swishScale == 0.0) {
    return npusim::aclnn::fail(api, npusim::aclnn::kErrParamInvalid, "swishScale must not be 0");
  }
  return npusim::aclnn::groupForward(api, npusim::aclnn::kSwish, {"x", x}, {"gamma", gamma}, {"beta", beta},
                                     {"yOut", yOut}, {"meanOut", meanOut}, {"rstdOut", rstdOut}, -1, -1, -1,
                                     numGroups, eps, activateSwish ? swishScale : 0.0, workspaceSize,
                                     executor);
}

extern "C" aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* mean, const aclTensor* rstd,
    const aclTensor* gamma, int64_t N, int64_t C, int64_t HxW, int64_t group, const aclBoolArray* outputMask,
    aclTensor* gradInput, aclTensor* gradGammaOut, aclTensor* gradBetaOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGroupNormBackwardGetWorkspaceSize";
  bool mask[3];
  if (int32_t st = readOutputMask(api, outputMask, mask); st != kSuccess) return st;
  const bool m0 = mask[0], m1 = mask[1], m2 = mask[2];
  return groupBackward(
      api, kBack, {"gradOut", gradOut}, {"input", input}, {"mean", mean}, {"rstd", rstd},
      {"gamma", gamma, true}, {"beta", nullptr, true}, {"gradInput", m0 ? gradInput : nullptr, !m0},
      {"gradGammaOut", m1 ? gradGammaOut : nullptr, !m1}, {"gradBetaOut", m2 ? gradBetaOut : nullptr, !m2}, N,
      C, HxW, group, 0.0, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupNormSwishGradGetWorkspaceSize(
    const aclTensor* dy, const aclTensor* mean, const aclTensor* rstd, const aclTensor* x,
    const aclTensor* gamma, const aclTensor* beta, int64_t numGroups, char* dataFormatOptional,
    double swishScale, bool dgammaIsRequire, bool dbetaIsRequire, const aclTensor* dxOut,
    const aclTensor* dgammaOut, const aclTensor* dbetaOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGroupNormSwishGradGetWorkspaceSize";
  if (int32_t st = checkDataFormat(api, dataFormatOptional); st != kSuccess) return st;
  if (swishScale == 0.0) return fail(api, kErrParamInvalid, "swishScale must not be 0");
  return groupBackward(api, kSwishGrad, {"dy", dy}, {"x", x}, {"mean", mean}, {"rstd", rstd},
                       {"gamma", gamma}, {"beta", beta}, {"dxOut", dxOut},
                       {"dgammaOut", dgammaIsRequire ? dgammaOut : nullptr, !dgammaIsRequire},
                       {"dbetaOut", dbetaIsRequire ? dbetaOut : nullptr, !dbetaIsRequire}, -1, -1, -1,
                       numGroups, swishScale, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnGroupNormalizationGradGetWorkspaceSize(
    const aclTensor* x, const aclTensor* dy, const aclTensor* gamma, const aclTensor* mean,
    const aclTensor* rstd, aclTensor* dx, uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGroupNormalizationGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"x", x}, dyA{"dy", dy}, gA{"gamma", gamma}, mA{"mean", mean}, rA{"rstd", rstd},
      dxA{"dx", dx};
  int32_t st = checkNormArgs(api, {xA, dyA, gA, mA, rA, dxA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kExpGrad, {xA, dyA, gA, mA, rA, dxA})) != kSuccess) return st;
  const std::vector<int64_t>& xs = x->desc.shape;
  if (xs.size() < 2)
    return fail(api, kErrParamInvalid, fmt::format("x shape {} needs 2 dimensions", shapeString(xs)));
  for (const NormArg& t : {dyA, gA, dxA}) {
    if ((st = checkArgShape(api, t, xs)) != kSuccess) return st;
  }
  const int64_t blocks = xs[0] * xs[1], m = dimProduct(xs, 2, xs.size());
  for (const NormArg& t : {mA, rA}) {
    if ((st = checkArgNumel(api, t, blocks)) != kSuccess) return st;
  }
  auto kernel = [blocks, m](const NormIo& io) {
    const std::vector<double> xv = io.load("x"), d = io.load("dy"), g = io.load("gamma"),
                              mean = io.load("mean"), rstd = io.load("rstd");
    std::vector<double> out(xv.size());
    const double mm = static_cast<double>(m);
    for (int64_t k = 0; k < blocks; ++k) {
      const size_t base = static_cast<size_t>(k * m), ks = static_cast<size_t>(k);
      double s1 = 0, s2 = 0;
      for (size_t e = base; e < base + static_cast<size_t>(m); ++e) {
        s1 += d[e] * g[e];
        s2 += d[e] * g[e] * (xv[e] - mean[ks]) * rstd[ks];
      }
      for (size_t e = base; e < base + static_cast<size_t>(m); ++e) {
        const double xh = (xv[e] - mean[ks]) * rstd[ks];
        out[e] = rstd[ks] / mm * g[e] * (mm * d[e] - s1 - xh * s2);
      }
    }
    io.store("dx", out);
  };
  auto inst = std::make_unique<NormInstance>("aclnnGroupNormalizationGrad", kernel, 4);
  for (auto [name, t] : {std::pair{"x", x}, {"dy", dy}, {"gamma", gamma}, {"mean", mean}, {"rstd", rstd}}) {
    inst->input(name, t);
  }
  inst->output("dx", dx);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GroupNorm)
NPUSIM_ACLNN_PHASE2(GroupNormSilu)
NPUSIM_ACLNN_PHASE2(GroupNormSiluV2)
NPUSIM_ACLNN_PHASE2(GroupNormSwish)
NPUSIM_ACLNN_PHASE2(GroupNormBackward)
NPUSIM_ACLNN_PHASE2(GroupNormSwishGrad)
NPUSIM_ACLNN_PHASE2(GroupNormalizationGrad)
