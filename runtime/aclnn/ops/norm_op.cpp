#include "runtime/aclnn/ops/norm_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

bool NormIo::hasIn(const std::string& name) const { return op_.inputIndex(name) >= 0; }
bool NormIo::hasOut(const std::string& name) const { return op_.outputIndex(name) >= 0; }

std::vector<double> NormIo::load(const std::string& name) const {
  const int i = op_.inputIndex(name);
  return i < 0 ? std::vector<double>() : loadDense<double>(in_[static_cast<size_t>(i)]);
}

std::vector<double> NormIo::loadOr(const std::string& name, size_t n, double fill) const {
  return hasIn(name) ? load(name) : std::vector<double>(n, fill);
}

void NormIo::store(const std::string& name, const std::vector<double>& v) const {
  const int i = op_.outputIndex(name);
  if (i >= 0) storeDense(out_[static_cast<size_t>(i)], v.data());
}

void NormInstance::input(const char* argName, const aclTensor* t) {
  if (t != nullptr) addInput(*this, argName, t);
}

void NormInstance::output(const char* argName, const aclTensor* t, int alias) {
  if (t != nullptr) addOutput(*this, argName, t, alias);
}

int NormInstance::inputIndex(const std::string& argName) const {
  auto it = std::find(inputNames.begin(), inputNames.end(), argName);
  return it == inputNames.end() ? -1 : static_cast<int>(it - inputNames.begin());
}

int NormInstance::outputIndex(const std::string& argName) const {
  auto it = std::find(outputNames.begin(), outputNames.end(), argName);
  return it == outputNames.end() ? -1 : static_cast<int>(it - outputNames.begin());
}

rt::OpWork NormInstance::work() const {
  // The largest output carries the tiling; the others are extra writes. The iteration space is
  // the largest tensor, which the vector unit walks `passes` times.
  if (outputs.empty()) return rt::OpWork{};  // every output masked off: nothing to launch
  size_t main = 0;
  int64_t elements = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].numel() > outputs[main].numel()) main = i;
  }
  for (const TensorDesc& t : inputs) elements = std::max(elements, t.numel());
  for (const TensorDesc& t : outputs) elements = std::max(elements, t.numel());
  VectorPass p{&inputs, &outputs[main], elements, std::max(0, passes - 1)};
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i != main) p.extraWriteBytes += static_cast<uint64_t>(outputs[i].numel()) * outputs[i].elementSize();
  }
  return vectorTiles(p);
}

void NormInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  kernel(NormIo(*this, in, out));
}

int32_t checkNormArgs(const char* api, std::initializer_list<NormArg> args) {
  for (const NormArg& a : args) {
    if (a.t == nullptr && !a.optional)
      return fail(api, kErrParamNullptr, fmt::format("{} must not be null", a.name));
  }
  for (const NormArg& a : args) {
    if (a.t == nullptr) continue;
    if (int32_t st = checkTensor(api, a.name, a.t->desc); st != kSuccess) return st;
  }
  return kSuccess;
}

int32_t checkNormTypes(const char* api, const OpInfo& info, std::initializer_list<NormArg> args) {
  for (const NormArg& a : args) {
    if (a.t == nullptr) continue;
    if (int32_t st = checkDtype(api, a.name, a.t->desc.dtype, info); st != kSuccess) return st;
  }
  return kSuccess;
}

int32_t checkSameType(const char* api, std::initializer_list<NormArg> args) {
  const NormArg* first = nullptr;
  for (const NormArg& a : args) {
    if (a.t == nullptr) continue;
    if (first == nullptr) {
      first = &a;
    } else if (a.t->desc.dtype != first->t->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} must equal {} type {}", a.name, dtypeName(a.t->desc.dtype),
                              first->name, dtypeName(first->t->desc.dtype)));
    }
  }
  return kSuccess;
}

int32_t checkTypeIn(const char* api, const NormArg& a, std::initializer_list<aclDataType> allowed) {
  if (a.t == nullptr || std::find(allowed.begin(), allowed.end(), a.t->desc.dtype) != allowed.end())
    return kSuccess;
  std::string list;
  for (aclDataType dt : allowed) list += (list.empty() ? "" : ", ") + std::string(dtypeName(dt));
  return fail(
      api, kErrParamInvalid,
      fmt::format("{} type {} is not supported (supported: {})", a.name, dtypeName(a.t->desc.dtype), list));
}

int32_t checkArgShape(const char* api, const NormArg& a, const std::vector<int64_t>& shape) {
  return a.t == nullptr ? kSuccess : checkShape(api, a.name, a.t->desc.shape, shape);
}

int32_t checkArgNumel(const char* api, const NormArg& a, int64_t n) {
  if (a.t == nullptr || a.t->desc.numel() == n) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("{} shape {} must have {} elements", a.name, shapeString(a.t->desc.shape), n));
}

int32_t checkTrailing(const char* api, const NormArg& tail, const std::vector<int64_t>& x) {
  const auto& ts = tail.t->desc.shape;
  bool ok = !ts.empty() && ts.size() <= x.size();
  for (size_t i = 0; ok && i < ts.size(); ++i) ok = ts[i] == x[x.size() - ts.size() + i];
  if (ok) return kSuccess;
  return fail(api, kErrParamInvalid,
              fmt::format("{} shape {} must equal the trailing dimensions of {}", tail.name, shapeString(ts),
                          shapeString(x)));
}

int32_t readOutputMask(const char* api, const aclBoolArray* outputMask, bool mask[3]) {
  if (outputMask == nullptr) return fail(api, kErrParamNullptr, "outputMask must not be null");
  if (outputMask->values.size() != 3) {
    return fail(api, kErrParamInvalid,
                fmt::format("outputMask must have 3 values, but has {}", outputMask->values.size()));
  }
  for (size_t i = 0; i < 3; ++i) mask[i] = outputMask->values[i];
  return kSuccess;
}

std::vector<int64_t> statShape(const std::vector<int64_t>& x, size_t normDims) {
  std::vector<int64_t> s = x;
  for (size_t i = s.size() - std::min(normDims, s.size()); i < s.size(); ++i) s[i] = 1;
  return s;
}

int32_t launchNorm(const char* api, std::unique_ptr<NormInstance> inst, uint64_t* workspaceSize,
                   aclOpExecutor** executor) {
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

RowStats rowStats(const double* x, int64_t n, double eps, bool centred) {
  if (n <= 0) return {0.0, 1.0 / std::sqrt(eps)};
  double s = 0;
  if (centred) {
    for (int64_t i = 0; i < n; ++i) s += x[i];
  }
  const double mean = s / static_cast<double>(n);
  double ss = 0;
  for (int64_t i = 0; i < n; ++i) ss += (x[i] - mean) * (x[i] - mean);
  return {mean, 1.0 / std::sqrt(ss / static_cast<double>(n) + eps)};
}

void layerNormBackwardRows(const std::vector<double>& dy, const std::vector<double>& x,
                           const std::vector<double>& mean, const std::vector<double>& rstd,
                           const std::vector<double>& g, int64_t n, std::vector<double>* dx,
                           std::vector<double>* dgamma, std::vector<double>* dbeta) {
  const size_t rows = n == 0 ? 0 : x.size() / static_cast<size_t>(n);
  const size_t un = static_cast<size_t>(n);
  dx->assign(x.size(), 0.0);
  dgamma->assign(un, 0.0);
  dbeta->assign(un, 0.0);
  for (size_t r = 0; r < rows; ++r) {
    // dx = rstd * (dy*g - mean(dy*g) - xhat * mean(dy*g*xhat))
    double a = 0, b = 0;
    for (size_t i = 0; i < un; ++i) {
      const size_t k = r * un + i;
      const double xh = (x[k] - mean[r]) * rstd[r], dyg = dy[k] * g[i];
      a += dyg;
      b += dyg * xh;
      (*dgamma)[i] += dy[k] * xh;
      (*dbeta)[i] += dy[k];
    }
    a /= static_cast<double>(n);
    b /= static_cast<double>(n);
    for (size_t i = 0; i < un; ++i) {
      const size_t k = r * un + i;
      const double xh = (x[k] - mean[r]) * rstd[r];
      (*dx)[k] = rstd[r] * (dy[k] * g[i] - a - xh * b);
    }
  }
}

}  // namespace npusim::aclnn
