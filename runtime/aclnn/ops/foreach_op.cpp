#include "runtime/aclnn/ops/foreach_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/strided_loop.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

constexpr int64_t kChunk = 1024;

// Address of the element at row-major index `flat` of a view.
const char* elementAt(const HostTensor& t, int64_t flat) {
  int64_t off = 0;
  for (size_t d = t.shape.size(); d-- > 0;) {
    off += (flat % t.shape[d]) * t.strides[d];
    flat /= t.shape[d];
  }
  return t.data + off * static_cast<int64_t>(dtypeSize(t.dtype));
}

// One scalar as the element function sees it: fp32-rounded for floating x, exact for integers.
struct EntryScalar {
  double f = 0;
  int64_t i = 0;
};

// out = f(x1, x2, x3, s) over one entry; T is double (floating types) or int64_t (integers).
template <typename T>
void entryRows(const ForeachDef& d, const std::array<const HostTensor*, 3>& x, int reads,
               const HostTensor& out, const EntryScalar& s) {
  const size_t r = out.shape.size();
  std::array<std::vector<int64_t>, 4> strides;
  std::array<char*, 4> base{};
  strides[0] = broadcastByteStrides(out.shape, out.strides, dtypeSize(out.dtype), r);
  base[0] = out.data;
  for (int k = 0; k < 3; ++k) {
    if (k < reads) {
      strides[k + 1] = broadcastByteStrides(x[k]->shape, x[k]->strides, dtypeSize(x[k]->dtype), r);
      base[k + 1] = x[k]->data;
    } else {
      strides[k + 1].assign(r, 0);
      base[k + 1] = out.data;
    }
  }
  T buf[3][kChunk] = {};
  T res[kChunk];
  forEachRow<4>(out.shape, strides, base,
                [&](const std::array<char*, 4>& p, int64_t n, const std::array<int64_t, 4>& st) {
                  for (int64_t done = 0; done < n; done += kChunk) {
                    const int64_t m = std::min(kChunk, n - done);
                    for (int k = 0; k < reads; ++k)
                      loadRow(x[k]->dtype, p[k + 1] + done * st[k + 1], st[k + 1], m, buf[k]);
                    if constexpr (std::is_same_v<T, int64_t>) {
                      for (int64_t j = 0; j < m; ++j) res[j] = d.fi(buf[0][j], buf[1][j], buf[2][j], s.i);
                    } else {
                      for (int64_t j = 0; j < m; ++j) res[j] = d.f(buf[0][j], buf[1][j], buf[2][j], s.f);
                      // the kernels compute in fp32 (fp64 only for a copy of fp64)
                      if (out.dtype != ACL_DOUBLE) quantizeRow(ACL_FLOAT, res, m);
                    }
                    storeRow(out.dtype, p[0] + done * st[0], st[0], m, res);
                  }
                });
}

// Every element of a view, in row-major order, as doubles.
template <typename Fn>
void eachValue(const HostTensor& t, Fn&& fn) {
  const size_t r = t.shape.size();
  std::array<std::vector<int64_t>, 1> strides = {
      broadcastByteStrides(t.shape, t.strides, dtypeSize(t.dtype), r)};
  double buf[kChunk];
  forEachRow<1>(t.shape, strides, {t.data},
                [&](const std::array<char*, 1>& p, int64_t n, const std::array<int64_t, 1>& st) {
                  for (int64_t done = 0; done < n; done += kChunk) {
                    const int64_t m = std::min(kChunk, n - done);
                    loadRow(t.dtype, p[0] + done * st[0], st[0], m, buf);
                    for (int64_t j = 0; j < m; ++j) fn(buf[j]);
                  }
                });
}

void storeOne(const HostTensor& t, double v) {
  double one[1] = {v};
  if (t.dtype != ACL_DOUBLE) quantizeRow(ACL_FLOAT, one, 1);
  storeRow(t.dtype, const_cast<char*>(elementAt(t, 0)), 0, 1, one);
}

// The p-norm of one tensor: p = inf is the largest magnitude, p = 0 the count of non-zeros.
double normOf(const HostTensor& x, double p) {
  double acc = 0;
  if (std::isinf(p)) {
    eachValue(x, [&](double v) { acc = std::max(acc, std::fabs(v)); });
    return acc;
  }
  if (p == 0) {
    eachValue(x, [&](double v) { acc += v != 0 ? 1 : 0; });
    return acc;
  }
  eachValue(x, [&](double v) { acc += std::pow(std::fabs(v), p); });
  return p == 1 ? acc : std::pow(acc, 1 / p);
}

class ForeachInstance : public OpInstanceBase<ForeachInstance> {
 public:
  const ForeachDef* def = nullptr;
  int n = 0;      // list entries
  int reads = 0;  // tensors read per entry: inputs[k * n + i] is list k's entry i
  ForeachScalar scalarKind = ForeachScalar::kNone;
  int scalarInput = -1;  // index of the device scalar tensor in inputs
  std::vector<EntryScalar> hostScalars;

  rt::OpWork work() const override {
    rt::OpWork w;
    w.cube = false;
    for (int i = 0; i < n; ++i) {
      std::vector<TensorDesc> rd;
      for (int k = 0; k < reads; ++k) rd.push_back(inputs[static_cast<size_t>(k * n + i)]);
      const int64_t elems = reads > 0 ? rd[0].numel() : outputs[i].numel();
      VectorPass pass{&rd, &outputs[i], elems, def->passes - 1};
      // the scalars (a device tensor, or foundInf/invScale) are read once, with the first entry
      if (i == 0 && scalarInput >= 0)
        pass.extraReadBytes = inputs[scalarInput].numel() * inputs[scalarInput].elementSize();
      rt::OpWork e = vectorTiles(pass);
      w.tiles.insert(w.tiles.end(), e.tiles.begin(), e.tiles.end());
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (def->mode == ForeachMode::kUnscale) return unscale(in, out);
    for (int i = 0; i < n; ++i) {
      const EntryScalar s = scalarOf(in, i, out[i].dtype);
      if (def->mode == ForeachMode::kNorm) {
        storeOne(out[i], normOf(in[static_cast<size_t>(i)], s.f));
        continue;
      }
      if (out[i].numel() == 0) continue;
      std::array<const HostTensor*, 3> x = {nullptr, nullptr, nullptr};
      for (int k = 0; k < reads; ++k) x[k] = &in[static_cast<size_t>(k * n + i)];
      if (isIntegral(out[i].dtype, true) && def->fi != nullptr) {
        entryRows<int64_t>(*def, x, reads, out[i], s);
      } else {
        entryRows<double>(*def, x, reads, out[i], s);
      }
    }
  }

 private:
  EntryScalar scalarOf(const std::vector<HostTensor>& in, int i, aclDataType xType) const {
    EntryScalar s;
    if (scalarKind == ForeachScalar::kNone) return s;
    if (scalarInput < 0) return hostScalars[hostScalars.size() == 1 ? 0 : static_cast<size_t>(i)];
    const HostTensor& t = in[static_cast<size_t>(scalarInput)];
    const char* p = elementAt(t, scalarKind == ForeachScalar::kTensorPerEntry ? i : 0);
    double v = 0;
    int64_t iv = 0;
    loadRow(t.dtype, p, 0, 1, &v);
    loadRow(t.dtype, p, 0, 1, &iv);
    s.f = def->scalarFollowsX && xType != ACL_DOUBLE ? static_cast<float>(v) : v;
    s.i = iv;
    return s;
  }

  // in: the n grads then invScale; out: the n grads (in place) then foundInf.
  void unscale(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
    double inv = 0;
    loadRow(in[static_cast<size_t>(n)].dtype, elementAt(in[static_cast<size_t>(n)], 0), 0, 1, &inv);
    bool found = false;
    for (int i = 0; i < n; ++i) {
      eachValue(in[static_cast<size_t>(i)], [&](double v) { found = found || !std::isfinite(v); });
      const std::array<const HostTensor*, 3> x = {&in[static_cast<size_t>(i)], nullptr, nullptr};
      EntryScalar s;
      s.f = static_cast<float>(inv);
      if (out[i].numel() > 0) entryRows<double>(*def, x, 1, out[i], s);
    }
    if (found) storeOne(out[static_cast<size_t>(n)], 1.0);
  }
};

const aclTensor* entryOf(const aclTensorList* l, size_t i) { return l->items[i]; }

int32_t checkList(const char* api, const char* name, const aclTensorList* l, size_t n) {
  if (l->items.size() != n) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} has {} tensors where the first list has {}", name, l->items.size(), n));
  }
  for (size_t i = 0; i < n; ++i) {
    const std::string item = fmt::format("{}[{}]", name, i);
    if (l->items[i] == nullptr)
      return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", item));
    if (int32_t st = checkTensor(api, item.c_str(), l->items[i]->desc); st != kSuccess) return st;
  }
  return kSuccess;
}

int32_t checkScalarType(const char* api, const ForeachDef& d, const char* name, aclDataType st,
                        aclDataType xt) {
  if (std::find(d.scalarTypes.begin(), d.scalarTypes.end(), st) == d.scalarTypes.end()) {
    return fail(api, kErrParamInvalid, fmt::format("{} of type {} is not supported", name, dtypeName(st)));
  }
  if (d.scalarFollowsX && isFloating(xt) != isFloating(st)) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} of type {} does not match the lists' type {}", name, dtypeName(st), dtypeName(xt)));
  }
  return kSuccess;
}

EntryScalar hostScalar(const aclScalar* s, const ForeachDef& d, aclDataType xt) {
  EntryScalar e;
  const double v = s->value.toDouble();
  e.f = d.scalarFollowsX && xt != ACL_DOUBLE ? static_cast<float>(v) : v;
  e.i = s->value.toInt64();
  return e;
}

}  // namespace

int32_t buildForeach(const ForeachDef& d, const char* api, const char* opName, const ForeachArgs& a,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(api);
  const char* outName = a.inplace ? a.xNames[0] : "out";
  for (int k = 0; k < d.lists; ++k) {
    if (a.x[k] == nullptr)
      return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", a.xNames[k]));
  }
  if (a.out == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", outName));
  const bool needsScalar = a.scalarKind != ForeachScalar::kNone;
  const void* scalarPtr = a.scalarKind == ForeachScalar::kHost ? static_cast<const void*>(a.scalar)
                          : a.scalarKind == ForeachScalar::kHostList
                              ? static_cast<const void*>(a.scalarList)
                              : static_cast<const void*>(a.scalarTensor);
  if (needsScalar && scalarPtr == nullptr) {
    return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", a.scalarName));
  }
  if (d.mode == ForeachMode::kUnscale && a.extraOut == nullptr) {
    return fail(api, kErrParamNullptr, "foundInf must not be nullptr");
  }
  const size_t n = a.x[0]->items.size();
  if (n == 0) return fail(api, kErrParamInvalid, fmt::format("{} is an empty list", a.xNames[0]));
  int32_t st = kSuccess;
  for (int k = 0; k < d.lists; ++k) {
    if ((st = checkList(api, a.xNames[k], a.x[k], n)) != kSuccess) return st;
  }
  if ((st = checkList(api, outName, a.out, n)) != kSuccess) return st;
  const aclDataType xt = entryOf(a.x[0], 0)->desc.dtype;
  if ((st = checkDtype(api, a.xNames[0], xt, *d.info)) != kSuccess) return st;
  for (size_t i = 0; i < n; ++i) {
    const TensorDesc& x0 = entryOf(a.x[0], i)->desc;
    for (int k = 0; k <= d.lists; ++k) {
      const TensorDesc& t = k < d.lists ? entryOf(a.x[k], i)->desc : entryOf(a.out, i)->desc;
      const std::string name = fmt::format("{}[{}]", k < d.lists ? a.xNames[k] : outName, i);
      if (t.dtype != xt) {
        return fail(api, kErrParamInvalid,
                    fmt::format("{} is {} where {}[0] is {}: the lists take one type", name,
                                dtypeName(t.dtype), a.xNames[0], dtypeName(xt)));
      }
      if (k == d.lists && d.mode == ForeachMode::kNorm) {
        if (t.numel() != 1) {
          return fail(api, kErrParamInvalid,
                      fmt::format("{} has shape {}, not one element", name, shapeString(t.shape)));
        }
      } else if ((st = checkShape(api, name.c_str(), t.shape, x0.shape)) != kSuccess) {
        return st;
      }
    }
  }

  auto inst = std::make_unique<ForeachInstance>();
  inst->name = opName;
  inst->def = &d;
  inst->n = static_cast<int>(n);
  inst->reads = d.readsX ? d.lists : 0;
  inst->scalarKind = a.scalarKind;
  for (int k = 0; k < inst->reads; ++k) {
    for (size_t i = 0; i < n; ++i)
      addInput(*inst, fmt::format("{}[{}]", a.xNames[k], i).c_str(), entryOf(a.x[k], i));
  }

  switch (a.scalarKind) {
    case ForeachScalar::kNone:
      break;
    case ForeachScalar::kTensor:
    case ForeachScalar::kTensorPerEntry: {
      const TensorDesc& s = a.scalarTensor->desc;
      if ((st = checkTensor(api, a.scalarName, s)) != kSuccess) return st;
      if ((st = checkScalarType(api, d, a.scalarName, s.dtype, xt)) != kSuccess) return st;
      const int64_t want = a.scalarKind == ForeachScalar::kTensor ? 1 : static_cast<int64_t>(n);
      if (s.numel() != want) {
        return fail(api, kErrParamInvalid,
                    fmt::format("{} has {} elements where {} are needed", a.scalarName, s.numel(), want));
      }
      inst->scalarInput = static_cast<int>(inst->inputs.size());
      addInput(*inst, a.scalarName, a.scalarTensor);
      break;
    }
    case ForeachScalar::kHost:
      if ((st = checkScalarType(api, d, a.scalarName, a.scalar->value.dtype, xt)) != kSuccess) return st;
      inst->hostScalars.push_back(hostScalar(a.scalar, d, xt));
      inst->attrs = fmt::format("{}={}", a.scalarName, a.scalar->value.str());
      break;
    case ForeachScalar::kHostList:
      if (a.scalarList->items.size() != n) {
        return fail(api, kErrParamInvalid,
                    fmt::format("{} has {} scalars where the lists have {} tensors", a.scalarName,
                                a.scalarList->items.size(), n));
      }
      for (size_t i = 0; i < n; ++i) {
        const aclScalar* s = a.scalarList->items[i];
        const std::string name = fmt::format("{}[{}]", a.scalarName, i);
        if (s == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} must not be nullptr", name));
        if ((st = checkScalarType(api, d, name.c_str(), s->value.dtype, xt)) != kSuccess) return st;
        inst->hostScalars.push_back(hostScalar(s, d, xt));
      }
      break;
  }

  for (size_t i = 0; i < n; ++i) {
    const int alias = a.inplace && d.readsX ? static_cast<int>(i) : -1;
    addOutput(*inst, fmt::format("{}[{}]", outName, i).c_str(), entryOf(a.out, i), alias);
  }
  if (d.mode == ForeachMode::kUnscale) {
    const TensorDesc& f = a.extraOut->desc;
    if ((st = checkTensor(api, "foundInf", f)) != kSuccess) return st;
    if (f.dtype != ACL_FLOAT || f.numel() != 1) {
      return fail(api, kErrParamInvalid, fmt::format("foundInf must be one fp32 element, not {}", f.brief()));
    }
    addOutput(*inst, "foundInf", a.extraOut);
  }
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
