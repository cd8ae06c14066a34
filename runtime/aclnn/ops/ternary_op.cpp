#include "runtime/aclnn/ops/ternary_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/strided_loop.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class TernaryInstance : public OpInstanceBase<TernaryInstance> {
 public:
  const TernaryDef* def = nullptr;
  PointwiseParams params;
  aclDataType calc = ACL_FLOAT;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), def->passes - 1});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    if (in.size() <= kStreamed) return stream(in, out[0]);
    widen(in, out[0]);
  }

 private:
  static constexpr size_t kStreamed = 5;  // operands handled row by row; longer lists are widened

  // Rows of the operands (broadcast to out's shape, any strides) loaded in chunks as fp64, f
  // applied, the results rounded to the compute type and stored in out's type. An absent operand
  // slot has stride 0 and is never read.
  void stream(const std::vector<HostTensor>& in, const HostTensor& o) const {
    constexpr size_t K = kStreamed + 1;
    constexpr int64_t kChunk = 512;
    const size_t r = o.shape.size(), k = in.size();
    std::array<std::vector<int64_t>, K> strides;
    std::array<char*, K> base{};
    strides[0] = broadcastByteStrides(o.shape, o.strides, dtypeSize(o.dtype), r);
    base[0] = o.data;
    for (size_t i = 0; i + 1 < K; ++i) {
      strides[i + 1] = i < k ? broadcastByteStrides(in[i].shape, in[i].strides, dtypeSize(in[i].dtype), r)
                             : std::vector<int64_t>(r, 0);
      base[i + 1] = i < k ? in[i].data : o.data;
    }
    double buf[kStreamed][kChunk], result[kChunk], x[kStreamed];
    forEachRow<K>(o.shape, strides, base,
                  [&](const std::array<char*, K>& p, int64_t n, const std::array<int64_t, K>& s) {
                    for (int64_t done = 0; done < n; done += kChunk) {
                      const int64_t m = std::min(kChunk, n - done);
                      for (size_t i = 0; i < k; ++i)
                        loadRow(in[i].dtype, p[i + 1] + done * s[i + 1], s[i + 1], m, buf[i]);
                      for (int64_t e = 0; e < m; ++e) {
                        for (size_t i = 0; i < k; ++i) x[i] = buf[i][e];
                        result[e] = def->f(x, k, params);
                      }
                      quantizeRow(calc, result, m);
                      storeRow(o.dtype, p[0] + done * s[0], s[0], m, result);
                    }
                  });
  }

  // Long tensor lists (aclnnAddN, aclnnEltwise): each operand widened to fp64 at out's shape first.
  void widen(const std::vector<HostTensor>& in, const HostTensor& o) const {
    const int64_t n = o.numel();
    const size_t k = in.size();
    std::vector<double> wide(static_cast<size_t>(n) * k);
    for (size_t i = 0; i < k; ++i) {
      copyView(in[i], hostTensor(ACL_DOUBLE, o.shape, wide.data() + i * static_cast<size_t>(n)));
    }
    std::vector<double> result(static_cast<size_t>(n)), x(k);
    for (int64_t e = 0; e < n; ++e) {
      for (size_t i = 0; i < k; ++i) x[i] = wide[i * static_cast<size_t>(n) + static_cast<size_t>(e)];
      result[static_cast<size_t>(e)] = def->f(x.data(), k, params);
    }
    quantizeRow(calc, result.data(), n);
    copyView(hostTensor(ACL_DOUBLE, o.shape, result.data()), o);
  }
};

}  // namespace

int32_t scalarParam(const char* api, const char* name, const aclScalar* s, double* v) {
  if (s == nullptr) return checkNotNull(api, {{name, s}});
  *v = s->value.toDouble();
  return kSuccess;
}

int32_t buildTernary(const TernaryDef& def, const TernaryArgs& a, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  for (const auto& [name, t] : a.xs) {
    if (t == nullptr) return checkNotNull(a.api, {{name.c_str(), t}});
  }
  int32_t st = checkNotNull(a.api, {{a.outName, a.out}});
  if (st != kSuccess) return st;
  aclDataType promoted = a.xs.empty() ? a.out->desc.dtype : a.xs[0].second->desc.dtype;
  std::vector<int64_t> shape;
  for (const auto& [name, t] : a.xs) {
    if ((st = checkTensor(a.api, name.c_str(), t->desc)) != kSuccess) return st;
    if ((st = checkDtype(a.api, name.c_str(), t->desc.dtype, *def.info)) != kSuccess) return st;
    if (def.sameTypes && t->desc.dtype != a.xs[0].second->desc.dtype) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} of type {} must have {}'s type {}", name, dtypeName(t->desc.dtype),
                              a.xs[0].first, dtypeName(a.xs[0].second->desc.dtype)));
    }
    promoted = promoteTypes(promoted, t->desc.dtype);
    if (promoted == ACL_DT_UNDEFINED || !def.info->accepts(promoted)) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("the operands' types do not promote to one of {} ({} is {})",
                              def.info->dtypeList(), name, dtypeName(t->desc.dtype)));
    }
    std::vector<int64_t> next;
    if (!broadcastShapes(shape, t->desc.shape, &next)) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} shape {} does not broadcast with the other operands' {}", name,
                              shapeString(t->desc.shape), shapeString(shape)));
    }
    shape = next;
  }
  if (!a.inplace && (st = checkTensor(a.api, a.outName, a.out->desc)) != kSuccess) return st;
  const aclDataType od = a.out->desc.dtype;
  if (def.outTypes != nullptr) {
    if (std::find(def.outTypes->begin(), def.outTypes->end(), od) == def.outTypes->end()) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("{} of type {} is not supported", a.outName, dtypeName(od)));
    }
  } else if ((st = checkDtype(a.api, a.outName, od, *def.info)) != kSuccess) {
    return st;
  } else if (!canCast(promoted, od)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("the promoted type {} cannot be written to {} of type {}", dtypeName(promoted),
                            a.outName, dtypeName(od)));
  }
  if ((st = checkShape(a.api, a.inplace ? "selfRef (the broadcast result)" : a.outName, a.out->desc.shape,
                       shape)) != kSuccess) {
    return st;
  }
  auto inst = std::make_unique<TernaryInstance>();
  inst->name = a.opName;
  inst->def = &def;
  inst->params = a.params;
  inst->attrs = a.attrs;
  inst->calc = isFloating(promoted) && promoted != ACL_DOUBLE ? ACL_FLOAT : promoted;
  for (const auto& [name, t] : a.xs) {
    inst->inputs.push_back(t->desc);
    inst->inputNames.push_back(name);
  }
  addOutput(*inst, a.outName, a.out, a.inplace ? 0 : -1);
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
