#include "runtime/aclnn/ops/pooling_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The valid input positions of one window along one dim: first, first + step, ... (count of
// them), and the size the average divides by when padding counts.
struct Window {
  int64_t first = 0, step = 1, count = 0, padded = 0;
};

// Windows along each of 3 dims (a 2-D pool gets a leading dim of size 1).
struct Geometry {
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  std::vector<Window> win[3];
  int64_t inPlane() const { return in[0] * in[1] * in[2]; }
  int64_t outPlane() const { return out[0] * out[1] * out[2]; }
};

Geometry geometryOf(const PoolSpec& s, const std::vector<int64_t>& inSizes, PoolMode mode) {
  Geometry g;
  const int lead = 3 - s.dims;
  for (int d = 0; d < 3; ++d) {
    if (d < lead) {
      g.win[d] = {Window{0, 1, 1, 1}};
      continue;
    }
    const size_t k = static_cast<size_t>(d - lead);
    const int64_t in = inSizes[k], out = s.outSize[k];
    g.in[d] = in;
    g.out[d] = out;
    for (int64_t o = 0; o < out; ++o) {
      Window w;
      if (s.adaptive) {
        const int64_t lo = o * in / out, hi = ((o + 1) * in + out - 1) / out;
        w = {lo, 1, hi - lo, hi - lo};
      } else {
        const int64_t kk = s.kernel[k], dil = mode == PoolMode::kAvg ? 1 : s.dilation[k];
        const int64_t start = o * s.stride[k] - s.padBegin[k];
        int64_t j0 = start < 0 ? (-start + dil - 1) / dil : 0, j1 = kk;  // kernel taps [j0, j1) inside
        while (j1 > j0 && start + (j1 - 1) * dil >= in) --j1;
        w.first = start + j0 * dil;
        w.step = dil;
        w.count = std::max<int64_t>(0, j1 - j0);
        w.padded = s.wholeKernelDivisor ? kk : std::min(start + kk, in + s.padEnd[k]) - start;
      }
      g.win[d].push_back(w);
    }
  }
  return g;
}

class PoolInstance : public OpInstanceBase<PoolInstance> {
 public:
  PoolMode mode = PoolMode::kMax;
  bool backward = false, hasIndices = false;
  PoolSpec spec;
  std::vector<int64_t> inSizes;  // pooled dims of self
  int64_t planes = 0;            // product of self's leading dims
  int overlap = 1;               // window elements per out element over stride volume (cost)

  rt::OpWork work() const override {
    VectorPass p{&inputs, &outputs[0], inputs[0].numel(), overlap - 1};
    for (size_t k = 1; k < outputs.size(); ++k)
      p.extraWriteBytes += outputs[k].numel() * outputs[k].elementSize();
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const Geometry g = geometryOf(spec, inSizes, mode);
    if (backward) {
      computeBackward(g, in, out);
    } else {
      computeForward(g, in, out);
    }
  }

 private:
  double divisor(const Geometry& g, const Window* w[3]) const {
    if (spec.divisorOverride != 0) return static_cast<double>(spec.divisorOverride);
    double d = 1;
    for (int k = 0; k < 3; ++k) d *= static_cast<double>(spec.countIncludePad ? w[k]->padded : w[k]->count);
    return d;
  }

  // Calls f(outIndexInPlane, windows) for every out position of a plane.
  template <typename F>
  void forEachWindow(const Geometry& g, F&& f) const {
    int64_t o = 0;
    for (int64_t a = 0; a < g.out[0]; ++a) {
      for (int64_t b = 0; b < g.out[1]; ++b) {
        for (int64_t c = 0; c < g.out[2]; ++c) {
          const Window* w[3] = {&g.win[0][static_cast<size_t>(a)], &g.win[1][static_cast<size_t>(b)],
                                &g.win[2][static_cast<size_t>(c)]};
          f(o++, w);
        }
      }
    }
  }

  // Calls f(inIndexInPlane) for every valid position of a window.
  template <typename F>
  static void forEachTap(const Geometry& g, const Window* const w[3], F&& f) {
    for (int64_t i = 0; i < w[0]->count; ++i) {
      const int64_t d = w[0]->first + i * w[0]->step;
      for (int64_t j = 0; j < w[1]->count; ++j) {
        const int64_t h = w[1]->first + j * w[1]->step;
        for (int64_t k = 0; k < w[2]->count; ++k)
          f((d * g.in[1] + h) * g.in[2] + w[2]->first + k * w[2]->step);
      }
    }
  }

  void computeForward(const Geometry& g, const std::vector<HostTensor>& in,
                      const std::vector<HostTensor>& out) const {
    const std::vector<double> x = loadDense<double>(in[0]);
    const int64_t ip = g.inPlane(), op = g.outPlane();
    std::vector<double> y(static_cast<size_t>(planes * op));
    std::vector<int64_t> idx(hasIndices ? y.size() : 0);
    for (int64_t p = 0; p < planes; ++p) {
      const double* xp = x.data() + p * ip;
      forEachWindow(g, [&](int64_t o, const Window* w[3]) {
        const size_t at = static_cast<size_t>(p * op + o);
        if (mode == PoolMode::kAvg) {
          double s = 0;
          forEachTap(g, w, [&](int64_t i) { s += xp[i]; });
          y[at] = s / divisor(g, w);
          return;
        }
        double best = -INFINITY;
        int64_t arg = -1;
        forEachTap(g, w, [&](int64_t i) {
          if (arg < 0 || xp[i] > best || (std::isnan(xp[i]) && !std::isnan(best))) {
            best = xp[i];
            arg = i;
          }
        });
        y[at] = best;
        if (hasIndices) idx[at] = std::max<int64_t>(arg, 0);
      });
    }
    storeDense(out[0], y.data());
    if (hasIndices) storeDense(out[1], idx.data());
  }

  void computeBackward(const Geometry& g, const std::vector<HostTensor>& in,
                       const std::vector<HostTensor>& out) const {
    const std::vector<double> go = loadDense<double>(in[0]);  // gradOutput
    const std::vector<int64_t> idx = hasIndices ? loadDense<int64_t>(in[2]) : std::vector<int64_t>{};
    const int64_t ip = g.inPlane(), op = g.outPlane();
    std::vector<double> gi(static_cast<size_t>(planes * ip), 0.0);
    for (int64_t p = 0; p < planes; ++p) {
      double* gp = gi.data() + p * ip;
      forEachWindow(g, [&](int64_t o, const Window* w[3]) {
        const size_t at = static_cast<size_t>(p * op + o);
        if (mode == PoolMode::kMax) {
          const int64_t i = idx[at];
          if (i >= 0 && i < ip) gp[i] += go[at];  // an index outside the plane adds nothing
          return;
        }
        const double v = go[at] / divisor(g, w);
        forEachTap(g, w, [&](int64_t i) { gp[i] += v; });
      });
    }
    storeDense(out[0], gi.data());
  }
};

const std::vector<aclDataType> kIndexTypes = {ACL_INT32, ACL_INT64};

}  // namespace

int32_t poolArray(const char* api, const char* name, const aclIntArray* a, int dims, int64_t minValue,
                  const std::vector<int64_t>& fallback, std::vector<int64_t>* out) {
  if (a == nullptr || a->values.empty()) {
    *out = fallback;
    return kSuccess;
  }
  const auto& v = a->values;
  if (v.size() != 1 && v.size() != static_cast<size_t>(dims)) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must have 1 or {} values, but has {}", name, dims, v.size()));
  }
  for (int64_t e : v) {
    if (e < minValue) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} values must be at least {}, but one is {}", name, minValue, e));
    }
  }
  out->assign(static_cast<size_t>(dims), v[0]);
  if (v.size() == static_cast<size_t>(dims)) *out = v;
  return kSuccess;
}

int32_t poolOutSize(const char* api, const std::vector<int64_t>& in, PoolSpec* s) {
  s->outSize.clear();
  for (size_t k = 0; k < in.size(); ++k) {
    const int64_t kk = s->kernel[k], st = s->stride[k], pb = s->padBegin[k], pe = s->padEnd[k],
                  dil = s->dilation[k];
    if (pb > kk / 2 || pe > kk / 2) {
      return fail(api, kErrParamInvalid,
                  fmt::format("padding ({}, {}) must be at most half the kernel size {}", pb, pe, kk));
    }
    const int64_t span = in[k] + pb + pe - dil * (kk - 1) - 1;
    int64_t o = span < 0 ? 0 : (s->ceilMode ? (span + st - 1) / st : span / st) + 1;
    if (s->ceilMode && o > 0 && (o - 1) * st >= in[k] + pb) --o;
    if (o <= 0) {
      return fail(api, kErrParamInvalid,
                  fmt::format("the pooled size of input dimension {} with kernel {}, stride {}, padding {}, "
                              "dilation {} is {}: the window does not fit",
                              in[k], kk, st, pb, dil, o));
    }
    s->outSize.push_back(o);
  }
  return kSuccess;
}

int32_t buildPool(const OpInfo& info, const char* api, PoolMode mode, bool backward, const PoolSpec& spec,
                  const PoolTensors& t, const std::string& attrs, uint64_t* workspaceSize,
                  aclOpExecutor** executor) {
  const bool withIndices = t.indices != nullptr;
  int32_t st = checkTensor(api, t.selfName, t.self->desc);
  if (st != kSuccess) return st;
  if ((st = checkDtype(api, t.selfName, t.self->desc.dtype, info)) != kSuccess) return st;
  const auto& xs = t.self->desc.shape;
  const size_t r = xs.size(), d = static_cast<size_t>(spec.dims);
  if (r != d + 1 && r != d + 2) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} must have {} or {} dimensions ([N,] C, spatial), but has shape {}",
                            t.selfName, d + 1, d + 2, shapeString(xs)));
  }
  std::vector<int64_t> outShape(xs.begin(), xs.end() - static_cast<int64_t>(d));
  outShape.insert(outShape.end(), spec.outSize.begin(), spec.outSize.end());
  const std::vector<int64_t> inSizes(xs.end() - static_cast<int64_t>(d), xs.end());
  const aclTensor* pooled = backward ? t.gradOutput : t.out;
  const char* pooledName = backward ? t.gradOutputName : t.outName;
  if ((st = checkTensor(api, pooledName, pooled->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, pooledName, pooled->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkShape(api, pooledName, pooled->desc.shape, outShape)) != kSuccess) return st;
  if (withIndices) {
    if ((st = checkTensor(api, t.indicesName, t.indices->desc)) != kSuccess) return st;
    const OpInfo idx{api, ExecUnit::kVector, kIndexTypes, ""};
    if ((st = checkDtype(api, t.indicesName, t.indices->desc.dtype, idx)) != kSuccess) return st;
    if ((st = checkShape(api, t.indicesName, t.indices->desc.shape, outShape)) != kSuccess) return st;
  }
  if (backward) {
    if ((st = checkTensor(api, t.gradInputName, t.gradInput->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, t.gradInputName, t.gradInput->desc.dtype, info)) != kSuccess) return st;
    if ((st = checkShape(api, t.gradInputName, t.gradInput->desc.shape, xs)) != kSuccess) return st;
  }
  auto inst = std::make_unique<PoolInstance>();
  inst->name = info.name;
  inst->mode = mode;
  inst->backward = backward;
  inst->hasIndices = withIndices;
  inst->spec = spec;
  inst->inSizes = inSizes;
  inst->planes = dimProduct(xs, 0, r - d);
  int64_t kernelVolume = 1, strideVolume = 1;
  for (size_t k = 0; k < d; ++k) {
    kernelVolume *= spec.adaptive ? (inSizes[k] + spec.outSize[k] - 1) / std::max<int64_t>(spec.outSize[k], 1)
                                  : spec.kernel[k];
    strideVolume *= spec.adaptive ? std::max<int64_t>(1, inSizes[k] / std::max<int64_t>(spec.outSize[k], 1))
                                  : spec.stride[k];
  }
  inst->overlap = static_cast<int>(std::max<int64_t>(1, (kernelVolume + strideVolume - 1) / strideVolume));
  inst->attrs = attrs;
  if (backward) {
    addInput(*inst, t.gradOutputName, t.gradOutput);
    addInput(*inst, t.selfName, t.self);
    if (withIndices) addInput(*inst, t.indicesName, t.indices);
    addOutput(*inst, t.gradInputName, t.gradInput);
  } else {
    addInput(*inst, t.selfName, t.self);
    addOutput(*inst, t.outName, t.out);
    if (withIndices) addOutput(*inst, t.indicesName, t.indices);
  }
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
