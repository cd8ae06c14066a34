#include "runtime/aclnn/ops/scatter_op.h"

#include <algorithm>
#include <map>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

template <typename T>
T combine(ScatterReduce r, T a, T b) {
  switch (r) {
    case ScatterReduce::kNone:
      return b;
    case ScatterReduce::kAdd:
    case ScatterReduce::kMean:
      return a + b;
    case ScatterReduce::kMul:
      return a * b;
    case ScatterReduce::kMax:
      return std::max(a, b);
    case ScatterReduce::kMin:
      return std::min(a, b);
  }
  return b;
}

template <typename T>
void scatter(const ScatterInstance& op, const std::vector<HostTensor>& in, const HostTensor& out) {
  const auto n = static_cast<size_t>(out.numel());
  std::vector<T> y =
      op.selfInput >= 0 ? loadDense<T>(in[static_cast<size_t>(op.selfInput)]) : std::vector<T>(n, T(0));
  const std::vector<int64_t> idx =
      op.indexInput >= 0 ? loadDense<int64_t>(in[static_cast<size_t>(op.indexInput)]) : op.hostIndex;
  std::vector<T> src;
  std::vector<int64_t> srcShape;
  if (op.srcInput >= 0) {
    src = loadDense<T>(in[static_cast<size_t>(op.srcInput)]);
    srcShape = in[static_cast<size_t>(op.srcInput)].shape;
  }
  T value = T(0);
  if (op.srcInput < 0) {
    if constexpr (std::is_same_v<T, int64_t>)
      value = op.scalar.toInt64();
    else
      value = static_cast<T>(op.scalar.toDouble());
  }
  std::map<int64_t, int64_t> frequency;  // index value -> occurrences (frequencyOf)
  if (op.frequencyOf) {
    for (int64_t v : idx) ++frequency[v];
  }
  std::vector<int64_t> count(n, op.includeSelf ? 1 : 0);  // values combined so far (mean)
  std::vector<bool> touched(n, false);
  bool empty = false;
  for (int64_t e : op.updateShape) empty = empty || e == 0;
  std::vector<int64_t> pos(op.updateShape.size(), 0);
  while (!empty) {
    const int64_t d = op.dest(pos, idx);
    if (d >= 0 && static_cast<size_t>(d) < n) {
      T v = op.srcInput >= 0 ? src[static_cast<size_t>(flatIndex(pos, srcShape))] : value;
      if (op.alpha != 1) v = static_cast<T>(v * op.alpha);
      if (op.frequencyOf)
        v = static_cast<T>(v / static_cast<T>(frequency[idx[static_cast<size_t>(op.frequencyOf(pos))]]));
      T& slot = y[static_cast<size_t>(d)];
      const bool first = !op.includeSelf && !touched[static_cast<size_t>(d)];
      slot = first ? v : combine(op.reduce, slot, v);
      touched[static_cast<size_t>(d)] = true;
      ++count[static_cast<size_t>(d)];
    }
    size_t a = pos.size();
    while (a-- > 0) {
      if (++pos[a] < op.updateShape[a]) break;
      pos[a] = 0;
    }
    if (a == static_cast<size_t>(-1)) break;
  }
  if (op.reduce == ScatterReduce::kMean) {
    for (size_t i = 0; i < n; ++i) {
      if (!touched[i] || count[i] == 0) continue;
      if constexpr (std::is_same_v<T, int64_t>) {  // integer mean rounds down, like PyTorch's
        const int64_t q = y[i] / count[i];
        y[i] = q * count[i] > y[i] ? q - 1 : q;
      } else {
        y[i] /= static_cast<T>(count[i]);
      }
    }
  }
  storeDense(out, y.data());
}

}  // namespace

rt::OpWork ScatterInstance::work() const {
  int64_t updates = 1;
  for (int64_t e : updateShape) updates *= e;
  return vectorTiles(VectorPass{&inputs, &outputs[0], std::max(outputs[0].numel(), updates), 0});
}

void ScatterInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  if (out[0].numel() == 0) return;
  if (isIntegral(out[0].dtype, true))
    scatter<int64_t>(*this, in, out[0]);
  else
    scatter<double>(*this, in, out[0]);
}

}  // namespace npusim::aclnn
