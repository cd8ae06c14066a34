#include "runtime/aclnn/ops/gather_map_op.h"

#include <fmt/format.h>

#include <cstring>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

// Calls fn(pos) for every position of `shape` in row-major order.
template <typename Fn>
void forEachPosition(const std::vector<int64_t>& shape, Fn&& fn) {
  for (int64_t e : shape) {
    if (e == 0) return;
  }
  std::vector<int64_t> pos(shape.size(), 0);
  while (true) {
    fn(pos);
    size_t a = shape.size();
    while (a-- > 0) {
      if (++pos[a] < shape[a]) break;
      pos[a] = 0;
    }
    if (a == static_cast<size_t>(-1)) return;
  }
}

template <typename T>
T fillAs(const ScalarValue& v);
template <>
double fillAs<double>(const ScalarValue& v) {
  return v.dtype == ACL_DT_UNDEFINED ? 0.0 : v.toDouble();
}
template <>
int64_t fillAs<int64_t>(const ScalarValue& v) {
  return v.dtype == ACL_DT_UNDEFINED ? 0 : v.toInt64();
}

template <typename T>
void runMap(const MapInstance& op, const std::vector<HostTensor>& in, const HostTensor& out) {
  std::vector<T> src;
  for (const HostTensor& t : in) {
    const std::vector<T> v = loadDense<T>(t);
    src.insert(src.end(), v.begin(), v.end());
  }
  for (const ScalarValue& c : op.constants) src.push_back(fillAs<T>(c));
  const auto n = static_cast<int64_t>(src.size());
  std::vector<T> y(static_cast<size_t>(out.numel()), op.accumulate ? T(0) : fillAs<T>(op.fill));
  const auto m = static_cast<int64_t>(y.size());
  if (op.accumulate) {
    int64_t e = 0;
    forEachPosition(in[0].shape, [&](const std::vector<int64_t>& pos) {
      const int64_t d = op.source(pos);
      if (d >= 0 && d < m) y[static_cast<size_t>(d)] += src[static_cast<size_t>(e)];
      ++e;
    });
  } else {
    size_t e = 0;
    forEachPosition(out.shape, [&](const std::vector<int64_t>& pos) {
      const int64_t s = op.source(pos);
      if (s >= 0 && s < n) y[e] = src[static_cast<size_t>(s)];
      ++e;
    });
  }
  storeDense(out, y.data());
}

// The view's elements, row-major, as raw bytes.
std::vector<char> loadBytes(const HostTensor& t) {
  const size_t es = dtypeSize(t.dtype);
  std::vector<char> v(static_cast<size_t>(t.numel()) * es);
  size_t e = 0;
  forEachPosition(t.shape, [&](const std::vector<int64_t>& pos) {
    int64_t off = 0;
    for (size_t a = 0; a < pos.size(); ++a) off += pos[a] * t.strides[a];
    std::memcpy(v.data() + e++ * es, t.data + off * static_cast<int64_t>(es), es);
  });
  return v;
}

// Every operand of out's type: elements move as bytes (any type, complex included). Fill and
// constants are encoded in out's type (zero bytes for complex types, which take no scalar).
void runMapBytes(const MapInstance& op, const std::vector<HostTensor>& in, const HostTensor& out) {
  const size_t es = dtypeSize(out.dtype);
  std::vector<char> src;
  for (const HostTensor& t : in) {
    const std::vector<char> v = loadBytes(t);
    src.insert(src.end(), v.begin(), v.end());
  }
  auto encoded = [&](const ScalarValue& s) {
    std::vector<char> b(es, 0);
    if (s.dtype == ACL_DT_UNDEFINED || isComplex(out.dtype)) return b;
    HostTensor one{out.dtype, {1}, {1}, b.data()};
    if (isIntegral(out.dtype, true)) {
      const int64_t v = s.toInt64();
      storeDense(one, &v);
    } else {
      const double v = s.toDouble();
      storeDense(one, &v);
    }
    return b;
  };
  for (const ScalarValue& c : op.constants) {
    const std::vector<char> b = encoded(c);
    src.insert(src.end(), b.begin(), b.end());
  }
  const std::vector<char> fill = encoded(op.fill);
  const auto n = static_cast<int64_t>(src.size() / es);
  forEachPosition(out.shape, [&](const std::vector<int64_t>& pos) {
    const int64_t s = op.source(pos);
    int64_t off = 0;
    for (size_t a = 0; a < pos.size(); ++a) off += pos[a] * out.strides[a];
    std::memcpy(out.data + off * static_cast<int64_t>(es),
                s >= 0 && s < n ? src.data() + s * es : fill.data(), es);
  });
}

}  // namespace

ScalarValue int64Scalar(int64_t v) {
  ScalarValue s;
  s.dtype = ACL_INT64;
  std::memcpy(s.bytes, &v, sizeof v);
  return s;
}

int64_t flatIndex(const std::vector<int64_t>& pos, const std::vector<int64_t>& shape) {
  int64_t f = 0;
  for (size_t a = 0; a < shape.size(); ++a) f = f * shape[a] + pos[a];
  return f;
}

rt::OpWork MapInstance::work() const {
  std::vector<TensorDesc> reads = inputs;
  if (readElements >= 0 && !inputs.empty()) {  // only the touched part of input 0
    TensorDesc touched = inputs[0];
    touched.shape = {readElements};
    touched.strides = {1};
    reads = {touched};
  }
  VectorPass p{&reads, &outputs[0], std::max(outputs[0].numel(), accumulate ? inputs[0].numel() : 0), 0};
  return vectorTiles(p);
}

void MapInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  if (out[0].numel() == 0) return;
  bool sameType = !accumulate;
  for (const HostTensor& t : in) sameType = sameType && t.dtype == out[0].dtype;
  if (sameType)
    runMapBytes(*this, in, out[0]);
  else if (isIntegral(out[0].dtype, true))
    runMap<int64_t>(*this, in, out[0]);
  else
    runMap<double>(*this, in, out[0]);
}

std::unique_ptr<MapInstance> newMap(const char* opName,
                                    std::initializer_list<std::pair<const char*, const aclTensor*>> in,
                                    const char* outName, const aclTensor* out, SourceMap source) {
  auto inst = std::make_unique<MapInstance>();
  inst->name = opName;
  for (const auto& [name, t] : in) addInput(*inst, name, t);
  addOutput(*inst, outName, out);
  inst->source = std::move(source);
  return inst;
}

int32_t checkMapArgs(const char* api, const OpInfo& info, const char* selfName, const aclTensor* self,
                     const char* outName, const aclTensor* out) {
  int32_t st = checkNotNull(api, {{selfName, self}, {outName, out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, selfName, self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, outName, out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, selfName, self->desc.dtype, info)) != kSuccess) return st;
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("{} type {} must equal {} type {}", outName, dtypeName(out->desc.dtype), selfName,
                            dtypeName(self->desc.dtype)));
  }
  return kSuccess;
}

}  // namespace npusim::aclnn
