// The masked softmaxes on the norm engine (norm_op.h): a softmax over the last dimension after
// a scale and a mask, rows of S2 elements.
//  - aclnnScaledMaskedSoftmax (ops-nn vfusion/scaled_masked_softmax_v2): y = softmax(scale * x
//    with masked positions (mask true) set to -10000, the kernel's MASK_VAL); x [B, N, S1, S2],
//    mask bool broadcast over B and N ([B|1, N|1, S1, S2]).
//  - aclnnScaledMaskedSoftmaxBackward (vfusion/scaled_masked_softmax_grad_v2): out = (dy*y -
//    sum(dy*y)*y) * scale, 0 where mask is true.
//  - aclnnMaskedSoftmaxWithRelPosBias (norm/masked_softmax_with_rel_pos_bias): out =
//    softmax(scaleValue * x + mask + bias) for x [B, W, N, S1, S2] (or [B*W, N, S1, S2]), mask
//    [W, S1, S2] and bias [N, S1, S2] in any of their documented ranks.
// fixTriuMask (generate the mask) is not supported, as the public documentation says (only false).
// fp32, fp16, bf16; computed in fp64, each row's max subtracted first.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h"
#include "aclnnop/aclnn_scaled_masked_softmax.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/norm_op.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

const std::initializer_list<aclDataType> kFloatsAndBool = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_BOOL};

const OpInfo kFwd{"aclnnScaledMaskedSoftmax", ExecUnit::kVector, kFloatsAndBool,
                  "y = softmax(mask ? -10000 : scale * x, dim=-1)"};
const OpInfo kBwd{"aclnnScaledMaskedSoftmaxBackward", ExecUnit::kVector, kFloatsAndBool,
                  "out = mask ? 0 : scale * (dy*y - sum(dy*y)*y)"};
const OpInfo kRel{"aclnnMaskedSoftmaxWithRelPosBias", ExecUnit::kVector, kNormFloats,
                  "out = softmax(scaleValue * x + attenMask + relativePosBias, dim=-1)"};
const OpRegistrar kRegs[] = {OpRegistrar(kFwd), OpRegistrar(kBwd), OpRegistrar(kRel)};

constexpr double kMaskValue = -10000.0;  // ops-nn scaled_masked_softmax_v2 op_kernel MASK_VAL

// Softmax of each row of n values in place.
void softmaxRows(std::vector<double>& v, int64_t n) {
  for (size_t base = 0; n > 0 && base < v.size(); base += static_cast<size_t>(n)) {
    double* p = v.data() + base;
    const double mx = *std::max_element(p, p + n);
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += (p[i] = std::exp(p[i] - mx));
    for (int64_t i = 0; i < n; ++i) p[i] /= s;
  }
}

// Index into a mask [B|1, N|1, S1, S2] broadcast to x [B, N, S1, S2], for x's element e.
struct MaskMap {
  int64_t n = 1, s = 1;  // x's N and S1*S2
  bool perB = true, perN = true;
  size_t of(size_t e) const {
    const int64_t i = static_cast<int64_t>(e), b = i / (n * s), h = (i / s) % n, k = i % s;
    return static_cast<size_t>(((perB ? b : 0) * (perN ? n : 1) + (perN ? h : 0)) * s + k);
  }
};

// 161002 unless x is 4-D and mask is bool [B|1, N|1, S1, S2].
int32_t maskMap(const char* api, const NormArg& x, const NormArg& mask, MaskMap* m) {
  const std::vector<int64_t>& xs = x.t->desc.shape;
  const std::vector<int64_t>& ms = mask.t->desc.shape;
  if (xs.size() != 4) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must be [B, N, S1, S2], but is {}", x.name, shapeString(xs)));
  }
  if (int32_t st = checkTypeIn(api, mask, {ACL_BOOL}); st != kSuccess) return st;
  if (ms.size() != 4 || (ms[0] != xs[0] && ms[0] != 1) || (ms[1] != xs[1] && ms[1] != 1) || ms[2] != xs[2] ||
      ms[3] != xs[3]) {
    return fail(api, kErrParamInvalid,
                fmt::format("mask shape {} must be [B|1, N|1, S1, S2] for {} {}", shapeString(ms), x.name,
                            shapeString(xs)));
  }
  m->n = xs[1];
  m->s = xs[2] * xs[3];
  m->perB = ms[0] == xs[0] && xs[0] != 1;
  m->perN = ms[1] == xs[1] && xs[1] != 1;
  return kSuccess;
}

int32_t checkFixTriu(const char* api, bool fixTriuMask) {
  if (!fixTriuMask) return kSuccess;
  return fail(api, kErrParamInvalid, "fixTriuMask=true (a generated upper-triangular mask) is not supported");
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;  // NOLINT: the entry points below are this file's whole surface

extern "C" aclnnStatus aclnnScaledMaskedSoftmaxGetWorkspaceSize(const aclTensor* x, const aclTensor* mask,
                                                                double scale, bool fixTriuMask, aclTensor* y,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  const char* api = "aclnnScaledMaskedSoftmaxGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"x", x}, mA{"mask", mask}, yA{"y", y};
  int32_t st = checkNormArgs(api, {xA, mA, yA});
  if (st != kSuccess) return st;
  if ((st = checkFixTriu(api, fixTriuMask)) != kSuccess) return st;
  if ((st = checkTypeIn(api, xA, kNormFloats)) != kSuccess) return st;
  if ((st = checkSameType(api, {xA, yA})) != kSuccess) return st;
  if ((st = checkArgShape(api, yA, x->desc.shape)) != kSuccess) return st;
  MaskMap mm;
  if ((st = maskMap(api, xA, mA, &mm)) != kSuccess) return st;
  const int64_t s2 = x->desc.shape[3];
  auto kernel = [mm, s2, scale](const NormIo& io) {
    std::vector<double> v = io.load("x");
    const std::vector<double> m = io.load("mask");
    for (size_t e = 0; e < v.size(); ++e) v[e] = m[mm.of(e)] != 0.0 ? kMaskValue : v[e] * scale;
    softmaxRows(v, s2);
    io.store("y", v);
  };
  auto inst = std::make_unique<NormInstance>("aclnnScaledMaskedSoftmax", kernel, 4);
  inst->input("x", x);
  inst->input("mask", mask);
  inst->output("y", y);
  inst->attrs = fmt::format("scale={}", scale);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask, double scale, bool fixTriuMask,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg dA{"gradOutput", gradOutput}, yA{"y", y}, mA{"mask", mask}, oA{"out", out};
  int32_t st = checkNormArgs(api, {dA, yA, mA, oA});
  if (st != kSuccess) return st;
  if ((st = checkFixTriu(api, fixTriuMask)) != kSuccess) return st;
  if ((st = checkTypeIn(api, dA, kNormFloats)) != kSuccess) return st;
  if ((st = checkSameType(api, {dA, yA, oA})) != kSuccess) return st;
  for (const NormArg& t : {yA, oA}) {
    if ((st = checkArgShape(api, t, gradOutput->desc.shape)) != kSuccess) return st;
  }
  MaskMap mm;
  if ((st = maskMap(api, dA, mA, &mm)) != kSuccess) return st;
  const int64_t s2 = gradOutput->desc.shape[3];
  auto kernel = [mm, s2, scale](const NormIo& io) {
    const std::vector<double> d = io.load("dy"), yv = io.load("y"), m = io.load("mask");
    std::vector<double> o(d.size());
    for (size_t base = 0; s2 > 0 && base < d.size(); base += static_cast<size_t>(s2)) {
      double s = 0;
      for (size_t i = base; i < base + static_cast<size_t>(s2); ++i) s += d[i] * yv[i];
      for (size_t i = base; i < base + static_cast<size_t>(s2); ++i)
        o[i] = m[mm.of(i)] != 0.0 ? 0.0 : (d[i] * yv[i] - s * yv[i]) * scale;
    }
    io.store("out", o);
  };
  auto inst = std::make_unique<NormInstance>("aclnnScaledMaskedSoftmaxBackward", kernel, 4);
  inst->input("dy", gradOutput);
  inst->input("y", y);
  inst->input("mask", mask);
  inst->output("out", out);
  inst->attrs = fmt::format("scale={}", scale);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(
    const aclTensor* x, const aclTensor* attenMaskOptional, const aclTensor* relativePosBias,
    double scaleValue, int64_t innerPrecisionMode, const aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  const NormArg xA{"x", x}, mA{"attenMaskOptional", attenMaskOptional, true},
      bA{"relativePosBias", relativePosBias}, oA{"out", out};
  int32_t st = checkNormArgs(api, {xA, mA, bA, oA});
  if (st != kSuccess) return st;
  if ((st = checkNormTypes(api, kRel, {xA, mA, bA, oA})) != kSuccess) return st;
  if ((st = checkSameType(api, {xA, mA, bA, oA})) != kSuccess) return st;
  if ((st = checkArgShape(api, oA, x->desc.shape)) != kSuccess) return st;
  const std::vector<int64_t>& xs = x->desc.shape;
  if (xs.size() != 4 && xs.size() != 5) {
    return fail(api, kErrParamInvalid,
                fmt::format("x must be [B*W, N, S1, S2] or [B, W, N, S1, S2], but is {}", shapeString(xs)));
  }
  const int64_t s = xs[xs.size() - 1] * xs[xs.size() - 2], n = xs[xs.size() - 3];
  // The mask varies with W, the bias with N: [W, S1, S2] and [N, S1, S2] once their 1s are dropped.
  int64_t w = 1;
  if (attenMaskOptional != nullptr && x->desc.numel() > 0) {  // an empty x has nothing to mask
    const int64_t mn = attenMaskOptional->desc.numel();
    w = s == 0 ? 0 : mn / s;
    const int64_t lead = dimProduct(xs, 0, xs.size() - 3);
    if (s == 0 || mn % s != 0 || w == 0 || lead % w != 0 || (xs.size() == 5 && w != xs[1] && w != 1)) {
      return fail(api, kErrParamInvalid,
                  fmt::format("attenMaskOptional shape {} must be [W, S1, S2] for x {}",
                              shapeString(attenMaskOptional->desc.shape), shapeString(xs)));
    }
  }
  if ((st = checkArgNumel(api, bA, n * s)) != kSuccess) return st;
  if (innerPrecisionMode != 0 && innerPrecisionMode != 1) {
    return fail(api, kErrParamInvalid,
                fmt::format("innerPrecisionMode must be 0 or 1, but is {}", innerPrecisionMode));
  }
  const int64_t s2 = xs.back();
  auto kernel = [s, n, w, s2, scaleValue](const NormIo& io) {
    std::vector<double> v = io.load("x");
    const std::vector<double> m = io.loadOr("mask", static_cast<size_t>(s), 0.0), b = io.load("bias");
    for (size_t e = 0; e < v.size(); ++e) {
      const int64_t i = static_cast<int64_t>(e), k = i % s, h = (i / s) % n, win = (i / (s * n)) % w;
      v[e] = scaleValue * v[e] + m[static_cast<size_t>(win * s + k)] + b[static_cast<size_t>(h * s + k)];
    }
    softmaxRows(v, s2);
    io.store("out", v);
  };
  auto inst = std::make_unique<NormInstance>("aclnnMaskedSoftmaxWithRelPosBias", kernel, 4);
  inst->input("x", x);
  inst->input("mask", attenMaskOptional);
  inst->input("bias", relativePosBias);
  inst->output("out", out);
  inst->attrs = fmt::format("scaleValue={}, innerPrecisionMode={}", scaleValue, innerPrecisionMode);
  return launchNorm(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(ScaledMaskedSoftmax)
NPUSIM_ACLNN_PHASE2(ScaledMaskedSoftmaxBackward)
NPUSIM_ACLNN_PHASE2(MaskedSoftmaxWithRelPosBias)
