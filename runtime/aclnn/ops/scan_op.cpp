#include "runtime/aclnn/ops/scan_op.h"

#include <fmt/format.h>

#include <cmath>
#include <type_traits>
#include <vector>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// Whether x replaces the running extremum m (torch's rule: ties move the index to the later
// element; a NaN wins and every later NaN moves the index).
template <typename T>
bool replaces(ScanKind kind, T x, T m) {
  if (x != x) return true;
  if (m != m) return false;
  return kind == ScanKind::kMax ? x >= m : x <= m;
}

template <typename T>
T combine(ScanKind kind, T acc, T x) {
  if constexpr (std::is_same_v<T, int64_t>) {  // wraps as the device's integer arithmetic
    const uint64_t a = static_cast<uint64_t>(acc), b = static_cast<uint64_t>(x);
    return static_cast<int64_t>(kind == ScanKind::kSum ? a + b : a * b);
  } else {
    return kind == ScanKind::kSum ? acc + x : acc * x;
  }
}

// Scans v (dense, `outer` x `len` x `inner`) in place along the middle dimension; idx gets the
// extremum's position for kMax/kMin.
template <typename T>
void scan(ScanKind kind, bool exclusive, bool reverse, int64_t outer, int64_t len, int64_t inner, T* v,
          int64_t* idx) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      T* base = v + o * len * inner + in;
      int64_t* ib = idx == nullptr ? nullptr : idx + o * len * inner + in;
      T acc = kind == ScanKind::kProd ? T(1) : T(0);
      int64_t at = 0;
      for (int64_t s = 0; s < len; ++s) {
        const int64_t i = reverse ? len - 1 - s : s;
        const T x = base[i * inner];
        if (kind == ScanKind::kMax || kind == ScanKind::kMin) {
          if (s == 0 || replaces(kind, x, acc)) {
            acc = x;
            at = i;
          }
          base[i * inner] = acc;
          ib[i * inner] = at;
        } else if (exclusive) {
          base[i * inner] = acc;
          acc = combine(kind, acc, x);
        } else {
          acc = combine(kind, acc, x);
          base[i * inner] = acc;
        }
      }
    }
  }
}

class ScanInstance : public OpInstanceBase<ScanInstance> {
 public:
  ScanKind kind = ScanKind::kSum;
  int64_t dim = 0;
  bool exclusive = false, reverse = false;

  // One pass over self and out (the running combine is one vector instruction per element);
  // cummax/cummin also write the indices.
  rt::OpWork work() const override {
    const std::vector<TensorDesc> in{inputs[0]};
    VectorPass p{&in, &outputs[0], outputs[0].numel(), 0};
    if (outputs.size() > 1)
      p.extraWriteBytes = static_cast<uint64_t>(outputs[1].numel()) * outputs[1].elementSize();
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& self = in[0];
    const int64_t n = self.numel();
    if (n == 0) return;
    int64_t outer = 1, inner = 1;
    const int64_t len = self.shape.empty() ? 1 : self.shape[static_cast<size_t>(dim)];
    for (int64_t d = 0; d < dim; ++d) outer *= self.shape[static_cast<size_t>(d)];
    for (size_t d = static_cast<size_t>(dim) + 1; d < self.shape.size(); ++d) inner *= self.shape[d];
    std::vector<int64_t> idx(out.size() > 1 ? static_cast<size_t>(n) : 0);
    const aclDataType od = out[0].dtype;
    if (isIntegral(od, true) && (kind == ScanKind::kSum || kind == ScanKind::kProd)) {
      std::vector<int64_t> v(static_cast<size_t>(n));
      copyView(self, hostTensor(ACL_INT64, self.shape, v.data()));
      scan<int64_t>(kind, exclusive, reverse, outer, len, inner, v.data(), nullptr);
      copyView(hostTensor(ACL_INT64, self.shape, v.data()), out[0]);
    } else {
      std::vector<double> v = loadWide(self, self.shape);
      scan<double>(kind, exclusive, reverse, outer, len, inner, v.data(), idx.empty() ? nullptr : idx.data());
      storeRounded(out[0], v);
    }
    if (out.size() > 1) copyView(hostTensor(ACL_INT64, self.shape, idx.data()), out[1]);
  }
};

}  // namespace

int32_t buildScan(const ScanArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor) {
  rt::chargeOpPrepare(a.api);
  const char* selfName = a.inplace ? "selfRef" : "self";
  const bool extremum = a.kind == ScanKind::kMax || a.kind == ScanKind::kMin;
  int32_t st =
      extremum ? checkNotNull(a.api, {{selfName, a.self}, {"valuesOut", a.out}, {"indicesOut", a.indices}})
               : checkNotNull(a.api, {{selfName, a.self}, {"out", a.out}});
  if (st != kSuccess) return st;
  const char* outName = extremum ? "valuesOut" : a.inplace ? "selfRef" : "out";
  if ((st = checkTensor(a.api, selfName, a.self->desc)) != kSuccess) return st;
  if ((st = checkTensor(a.api, outName, a.out->desc)) != kSuccess) return st;
  if ((st = checkDtype(a.api, selfName, a.self->desc.dtype, *a.info)) != kSuccess) return st;
  if ((st = checkDtype(a.api, outName, a.out->desc.dtype, *a.info)) != kSuccess) return st;
  const aclDataType sd = a.self->desc.dtype, od = a.out->desc.dtype;
  if (extremum ? sd != od : !canCast(sd, od)) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("{} of type {} cannot be written to {} of type {}", selfName, dtypeName(sd),
                            outName, dtypeName(od)));
  }
  const int64_t rank = static_cast<int64_t>(a.self->desc.shape.size());
  const int64_t lo = rank == 0 ? -1 : -rank, hi = rank == 0 ? 0 : rank - 1;
  if (a.dim < lo || a.dim > hi) {
    return fail(
        a.api, kErrParamInvalid,
        fmt::format("dim {} is out of range [{}, {}] for {} of rank {}", a.dim, lo, hi, selfName, rank));
  }
  const int64_t dim = rank == 0 ? 0 : (a.dim < 0 ? a.dim + rank : a.dim);
  if ((st = checkShape(a.api, outName, a.out->desc.shape, a.self->desc.shape)) != kSuccess) return st;
  auto inst = std::make_unique<ScanInstance>();
  if (extremum) {
    if ((st = checkTensor(a.api, "indicesOut", a.indices->desc)) != kSuccess) return st;
    const aclDataType it = a.indices->desc.dtype;
    if (it != ACL_INT32 && it != ACL_INT64) {
      return fail(a.api, kErrParamInvalid,
                  fmt::format("indicesOut of type {} is not int32 or int64", dtypeName(it)));
    }
    if ((st = checkShape(a.api, "indicesOut", a.indices->desc.shape, a.self->desc.shape)) != kSuccess)
      return st;
  }
  inst->name = a.opName;
  inst->kind = a.kind;
  inst->dim = dim;
  inst->exclusive = a.exclusive;
  inst->reverse = a.reverse;
  inst->attrs =
      fmt::format("dim={}{}{}", a.dim, a.exclusive ? ", exclusive" : "", a.reverse ? ", reverse" : "");
  addInput(*inst, selfName, a.self);
  addOutput(*inst, outName, a.out, a.inplace ? 0 : -1);
  if (extremum) addOutput(*inst, "indicesOut", a.indices);
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
