// Fused vector operators of ops-nn's vfusion family (issue 28): each is its public definition
// (ops-nn vfusion/<op>/docs) on the elementwise engine of ternary_op.h, which owns the type
// checks, views, empty tensors and the cost model.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "aclnnop/aclnn_modulate.h"
#include "aclnnop/aclnn_modulate_backward.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/ternary_op.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {
namespace {

// out = self * (1 + scale) + shift; p[0], p[1]: whether scale and shift are given (their values
// follow self's in x in that order).
double modulate(const double* x, size_t, const PointwiseParams& p) {
  double v = x[0];
  size_t i = 1;
  if (p[0] != 0) v *= 1 + x[i++];
  if (p[1] != 0) v += x[i];
  return v;
}

const OpInfo kModulate{"aclnnModulate",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                       "out = self * (1 + scale) + shift, scale and shift per (batch, hidden)"};
const OpInfo kModulateBackward{
    "aclnnModulateBackward",
    ExecUnit::kVector,
    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
    "grad_input = grad_output * scale, grad_scale = sum over L of grad_output * input, "
    "grad_shift = sum over L of grad_output"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kModulate), OpRegistrar(kModulateBackward)};
// Two vector passes: the multiply-add of scale and the add of shift.
const TernaryDef kModulateDef{&kModulate, modulate, 2, nullptr, true};

// scale or shift as the (B, 1, D) operand of self (B, L, D): the doc allows (B, 1, D) and
// (B, D); the second is viewed with a unit middle dimension so it broadcasts over L.
int32_t modulationView(const char* api, const char* name, const aclTensor* self, const aclTensor* t,
                       aclTensor* view) {
  const auto& s = self->desc.shape;
  const auto& m = t->desc.shape;
  *view = *t;
  if (m.size() == 3 && m[0] == s[0] && m[1] == 1 && m[2] == s[2]) return kSuccess;
  if (m.size() == 2 && m[0] == s[0] && m[1] == s[2]) {
    view->desc.shape = {m[0], 1, m[1]};
    view->desc.strides = {t->desc.strides[0], t->desc.strides[1], t->desc.strides[1]};
    return kSuccess;
  }
  rt::chargeOpPrepare(api);
  return fail(api, kErrParamInvalid,
              fmt::format("{} has shape {}: with self {} it must be ({}, 1, {}) or ({}, {})", name,
                          shapeString(m), shapeString(s), s[0], s[2], s[0], s[2]));
}

// ModulateBackward as its kernel computes it (ops-nn vfusion/modulate_grad/op_kernel): without
// scale the gradient passes through; with it, grad_input = grad_output * scale broadcast over L
// (the doc's formula: scale, not 1 + scale); the sums over L accumulate in fp32.
int32_t buildModulateBackward(const char* api, const aclTensor* go, const aclTensor* x,
                              const aclTensor* scale, const aclTensor* shift, const aclTensor* gx,
                              const aclTensor* gscale, const aclTensor* gshift, uint64_t* ws,
                              aclOpExecutor** ex) {
  rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "grad_output", go, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, 3)) != kSuccess) return st;
  const aclDataType dt = go->desc.dtype;
  const std::vector<int64_t>& s = go->desc.shape;
  const int64_t B = s[0], L = s[1], D = s[2];
  if ((st = checkArg(api, "input", x, {dt}, 3)) != kSuccess) return st;
  if ((st = checkShape(api, "input", x->desc.shape, s)) != kSuccess) return st;
  if ((st = checkArg(api, "grad_input", gx, {dt}, 3)) != kSuccess) return st;
  if ((st = checkShape(api, "grad_input", gx->desc.shape, s)) != kSuccess) return st;
  const std::vector<int64_t> bd{B, D};
  for (const auto& [name, t, gname, g] : {std::make_tuple("scale", scale, "grad_scale", gscale),
                                          std::make_tuple("shift", shift, "grad_shift", gshift)}) {
    if (t == nullptr) continue;
    if ((st = checkArg(api, name, t, {dt}, 2)) != kSuccess) return st;
    if ((st = checkShape(api, name, t->desc.shape, bd)) != kSuccess) return st;
    if ((st = checkArg(api, gname, g, {dt}, 2)) != kSuccess) return st;
    if ((st = checkShape(api, gname, g->desc.shape, bd)) != kSuccess) return st;
  }
  auto inst = std::make_unique<DenseKernelInstance>();
  inst->name = "aclnnModulateBackward";
  addInput(*inst, "grad_output", go);
  addInput(*inst, "input", x);
  if (scale != nullptr) addInput(*inst, "scale", scale);
  addOutput(*inst, "grad_input", gx);
  if (scale != nullptr) addOutput(*inst, "grad_scale", gscale);
  if (shift != nullptr) addOutput(*inst, "grad_shift", gshift);
  const bool hasScale = scale != nullptr, hasShift = shift != nullptr;
  inst->vectorPasses = hasScale ? 4 : hasShift ? 2 : 1;  // the kernel's multiplies and adds per element
  inst->kernel = [=](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    const std::vector<float> g = loadDense<float>(in[0]);
    const std::vector<float> xs = loadDense<float>(in[1]);
    const std::vector<float> sc = hasScale ? loadDense<float>(in[2]) : std::vector<float>();
    std::vector<float> gi(g.size()), gs(static_cast<size_t>(B * D), 0.0f),
        gt(static_cast<size_t>(B * D), 0.0f);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t l = 0; l < L; ++l)
        for (int64_t d = 0; d < D; ++d) {
          const size_t i = static_cast<size_t>((b * L + l) * D + d), m = static_cast<size_t>(b * D + d);
          gi[i] = hasScale ? g[i] * sc[m] : g[i];
          gs[m] += g[i] * xs[i];
          gt[m] += g[i];
        }
    storeDense(out[0], gi.data());
    size_t o = 1;
    if (hasScale) storeDense(out[o++], gs.data());
    if (hasShift) storeDense(out[o], gt.data());
  };
  inst->attrs = fmt::format("scale={}, shift={}", hasScale, hasShift);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnModulateGetWorkspaceSize(const aclTensor* self, const aclTensor* scaleOptional,
                                                     const aclTensor* shiftOptional, aclTensor* out,
                                                     uint64_t* ws, aclOpExecutor** ex) {
  const char* api = "aclnnModulateGetWorkspaceSize";
  if (self == nullptr || out == nullptr) {
    npusim::rt::chargeOpPrepare(api);
    return checkNotNull(api, {{"self", self}, {"out", out}});
  }
  if (self->desc.shape.size() != 3) {
    npusim::rt::chargeOpPrepare(api);
    return fail(
        api, kErrParamInvalid,
        fmt::format("self has shape {}: it must be (batch, seq_len, hidden)", shapeString(self->desc.shape)));
  }
  aclTensor scale, shift;
  TernaryArgs a{api,
                "aclnnModulate",
                {{"self", self}},
                "out",
                out,
                false,
                {scaleOptional != nullptr ? 1.0 : 0.0, shiftOptional != nullptr ? 1.0 : 0.0},
                fmt::format("scale={}, shift={}", scaleOptional != nullptr, shiftOptional != nullptr)};
  for (const auto& [name, t, view] : {std::make_tuple("scaleOptional", scaleOptional, &scale),
                                      std::make_tuple("shiftOptional", shiftOptional, &shift)}) {
    if (t == nullptr) continue;
    int32_t st = modulationView(api, name, self, t, view);
    if (st != kSuccess) return st;
    if (self->desc.numel() == 0 && view->desc.numel() != 0) {
      npusim::rt::chargeOpPrepare(api);
      return fail(api, kErrParamInvalid, fmt::format("self is empty but {} is not", name));
    }
    a.xs.emplace_back(name, view);
  }
  return buildTernary(kModulateDef, a, ws, ex);
}
NPUSIM_ACLNN_PHASE2(Modulate)

extern "C" aclnnStatus aclnnModulateBackwardGetWorkspaceSize(
    const aclTensor* grad_output, const aclTensor* input, const aclTensor* scale, const aclTensor* shift,
    const aclTensor* grad_input, const aclTensor* grad_scale, const aclTensor* grad_shift, uint64_t* ws,
    aclOpExecutor** ex) {
  return buildModulateBackward("aclnnModulateBackwardGetWorkspaceSize", grad_output, input, scale, shift,
                               grad_input, grad_scale, grad_shift, ws, ex);
}
NPUSIM_ACLNN_PHASE2(ModulateBackward)
