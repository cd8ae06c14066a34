#include "runtime/aclnn/ops/where_op.h"

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

template <typename T>
T scalarAs(const ScalarValue& v) {
  if constexpr (std::is_same_v<T, int64_t>)
    return v.toInt64();
  else
    return v.toDouble();
}

template <typename T>
void select(const WhereInstance& op, const std::vector<HostTensor>& in, const HostTensor& out) {
  const std::vector<int64_t> cond =
      loadDense<int64_t>(broadcastView(in[static_cast<size_t>(op.condInput)], out.shape));
  const std::vector<T> b = loadDense<T>(broadcastView(in[static_cast<size_t>(op.falseInput)], out.shape));
  std::vector<T> a;
  if (op.trueInput >= 0) {
    const HostTensor& t = in[static_cast<size_t>(op.trueInput)];
    a = loadDense<T>(op.consecutive ? t : broadcastView(t, out.shape));
  }
  const T s = op.trueInput >= 0 ? T(0) : scalarAs<T>(op.trueScalar);
  std::vector<T> y(b.size());
  size_t k = 0;  // next element of `a` (consecutive)
  for (size_t i = 0; i < y.size(); ++i) {
    if (cond[i] == 0)
      y[i] = b[i];
    else if (a.empty())
      y[i] = s;
    else if (!op.consecutive)
      y[i] = a[i];
    else
      y[i] = k < a.size() ? a[k++] : b[i];  // a source too short: phase 2 cannot know; keep self
  }
  storeDense(out, y.data());
}

}  // namespace

HostTensor broadcastView(const HostTensor& t, const std::vector<int64_t>& shape) {
  HostTensor v = t;
  v.shape = shape;
  v.strides.assign(shape.size(), 0);
  const size_t lead = shape.size() - t.shape.size();
  for (size_t i = 0; i < t.shape.size(); ++i) v.strides[lead + i] = t.shape[i] == 1 ? 0 : t.strides[i];
  return v;
}

rt::OpWork WhereInstance::work() const {
  return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 0});
}

void WhereInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  if (out[0].numel() == 0) return;
  if (isIntegral(out[0].dtype, true))
    select<int64_t>(*this, in, out[0]);
  else
    select<double>(*this, in, out[0]);
}

}  // namespace npusim::aclnn
