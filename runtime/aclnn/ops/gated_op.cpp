#include "runtime/aclnn/ops/gated_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class GatedInstance : public OpInstanceBase<GatedInstance> {
 public:
  const GatedDef* def = nullptr;
  GatedParams params{};
  int64_t dim = 0;
  bool actFirst = true;
  bool backward = false;
  int extraParam = -1;  // index of the input whose first value is params[0], or -1
  bool interleaved = false;
  int groupInput = -1;  // index of the groupIndex input, or -1

  rt::OpWork work() const override {
    uint64_t extra = 0;
    for (size_t i = 1; i < outputs.size(); ++i)
      extra += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), def->passes - 1, extra});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& xt = in[backward ? 1 : 0];
    if (xt.numel() == 0) return;
    GatedParams p = params;
    if (extraParam >= 0) p[0] = loadDense<double>(in[static_cast<size_t>(extraParam)])[0];
    const std::vector<double> x = loadDense<double>(xt);
    const size_t d = static_cast<size_t>(dim);
    const int64_t outer = dimProduct(xt.shape, 0, d), half = xt.shape[d] / 2,
                  inner = dimProduct(xt.shape, d + 1, xt.shape.size()), block = half * inner;
    const int64_t actOff = actFirst ? 0 : block, linOff = actFirst ? block : 0;
    int64_t rows = outer;
    if (groupInput >= 0) {
      int64_t sum = 0;
      for (int64_t v : loadDense<int64_t>(in[static_cast<size_t>(groupInput)])) sum += v;
      rows = std::max<int64_t>(0, std::min(sum, outer));
    }
    // offsets of the pair (act, lin) of element i of a row's half: the halves, or even / odd
    const auto actAt = [&](int64_t base, int64_t i) {
      return static_cast<size_t>(interleaved
                                     ? base + (i / inner) * 2 * inner + (actFirst ? 0 : inner) + i % inner
                                     : base + actOff + i);
    };
    const auto linAt = [&](int64_t base, int64_t i) {
      return static_cast<size_t>(interleaved
                                     ? base + (i / inner) * 2 * inner + (actFirst ? inner : 0) + i % inner
                                     : base + linOff + i);
    };
    if (backward) {
      const std::vector<double> g = loadDense<double>(in[0]);
      std::vector<double> dx(x.size(), 0.0);
      for (int64_t o = 0; o < rows; ++o) {
        for (int64_t i = 0; i < block; ++i) {
          const int64_t base = o * 2 * block;
          double da = 0, dl = 0;
          def->bwd(x[actAt(base, i)], x[linAt(base, i)], p, &da, &dl);
          const double gi = g[static_cast<size_t>(o * block + i)];
          dx[actAt(base, i)] = gi * da;
          dx[linAt(base, i)] = gi * dl;
        }
      }
      return storeDense(out[0], dx.data());
    }
    std::vector<double> y(static_cast<size_t>(outer * block), 0.0), gate(out.size() > 1 ? y.size() : 0);
    for (int64_t o = 0; o < rows; ++o) {
      for (int64_t i = 0; i < block; ++i) {
        const int64_t base = o * 2 * block;
        const double act = x[actAt(base, i)], lin = x[linAt(base, i)];
        y[static_cast<size_t>(o * block + i)] = def->fwd(act, lin, p);
        if (!gate.empty()) gate[static_cast<size_t>(o * block + i)] = def->gate(act, p);
      }
    }
    storeDense(out[0], y.data());
    if (!gate.empty()) storeDense(out[1], gate.data());
  }
};

int32_t checkSameType(const char* api, const char* name, const aclTensor* t, const char* xName,
                      aclDataType xt) {
  if (t->desc.dtype == xt) return kSuccess;
  return fail(
      api, kErrParamInvalid,
      fmt::format("{} type {} must equal {} type {}", name, dtypeName(t->desc.dtype), xName, dtypeName(xt)));
}

}  // namespace

int32_t buildGated(const GatedDef& def, const GatedArgs& a, const aclTensor* x, const aclTensor* out,
                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  int32_t st = checkNotNull(a.api, {{a.xName, x}, {a.outName, out}});
  if (st != kSuccess) return st;
  if (a.gradName != nullptr && (st = checkNotNull(a.api, {{a.gradName, a.grad}})) != kSuccess) return st;
  if (a.gateName != nullptr && (st = checkNotNull(a.api, {{a.gateName, a.gateOut}})) != kSuccess) return st;
  if (a.extraName != nullptr && (st = checkNotNull(a.api, {{a.extraName, a.extra}})) != kSuccess) return st;
  if ((st = checkTensor(a.api, a.xName, x->desc)) != kSuccess) return st;
  if ((st = checkTensor(a.api, a.outName, out->desc)) != kSuccess) return st;
  if ((st = checkDtype(a.api, a.xName, x->desc.dtype, *def.info)) != kSuccess) return st;
  const aclDataType xt = x->desc.dtype;
  if ((st = checkSameType(a.api, a.outName, out, a.xName, xt)) != kSuccess) return st;
  const int64_t d = wrapDim(a.dim, x->desc.rank());
  if (x->desc.rank() == 0 || d < 0) {
    return fail(
        a.api, kErrParamInvalid,
        fmt::format("dim {} is out of range for {} of {} dimensions", a.dim, a.xName, x->desc.rank()));
  }
  std::vector<int64_t> half = x->desc.shape;
  if (half[static_cast<size_t>(d)] % 2 != 0) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} shape {} has an odd length along dim {}", a.xName, shapeString(half), a.dim));
  }
  half[static_cast<size_t>(d)] /= 2;
  auto inst = std::make_unique<GatedInstance>();
  inst->name = def.info->name;
  inst->def = &def;
  inst->params = a.params;
  inst->dim = d;
  inst->actFirst = a.actFirst;
  inst->backward = a.grad != nullptr;
  inst->attrs = a.attrs;
  if (inst->backward) {
    if ((st = checkTensor(a.api, a.gradName, a.grad->desc)) != kSuccess) return st;
    if ((st = checkSameType(a.api, a.gradName, a.grad, a.xName, xt)) != kSuccess) return st;
    if ((st = checkShape(a.api, a.gradName, a.grad->desc.shape, half)) != kSuccess) return st;
    if ((st = checkShape(a.api, a.outName, out->desc.shape, x->desc.shape)) != kSuccess) return st;
    addInput(*inst, a.gradName, a.grad);
  } else if ((st = checkShape(a.api, a.outName, out->desc.shape, half)) != kSuccess) {
    return st;
  }
  addInput(*inst, a.xName, x);
  if (a.extra != nullptr) {
    if ((st = checkTensor(a.api, a.extraName, a.extra->desc)) != kSuccess) return st;
    if (a.extraIsParam && a.extra->desc.numel() != 1) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} must hold one element, not {}", a.extraName, a.extra->desc.numel()));
    }
    if (!a.extraIsParam && (st = checkShape(a.api, a.extraName, a.extra->desc.shape, half)) != kSuccess)
      return st;
    if (a.extraIsParam) inst->extraParam = static_cast<int>(inst->inputs.size());
    addInput(*inst, a.extraName, a.extra);
  }
  inst->interleaved = a.interleaved;
  if (a.groupIndex != nullptr) {
    if ((st = checkTensor(a.api, "groupIndex", a.groupIndex->desc)) != kSuccess) return st;
    if (!isIntegral(a.groupIndex->desc.dtype, false)) {
      return fail(
          a.api, kErrParamInvalid,
          fmt::format("groupIndex must be of an integer type, not {}", dtypeName(a.groupIndex->desc.dtype)));
    }
    inst->groupInput = static_cast<int>(inst->inputs.size());
    addInput(*inst, "groupIndex", a.groupIndex);
  }
  addOutput(*inst, a.outName, out);
  if (a.gateOut != nullptr) {
    if ((st = checkTensor(a.api, a.gateName, a.gateOut->desc)) != kSuccess) return st;
    if ((st = checkSameType(a.api, a.gateName, a.gateOut, a.xName, xt)) != kSuccess) return st;
    if ((st = checkShape(a.api, a.gateName, a.gateOut->desc.shape, half)) != kSuccess) return st;
    addOutput(*inst, a.gateName, a.gateOut);
  }
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
