#include "runtime/aclnn/ops/copy_op.h"

#include <algorithm>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/ops/broadcast_map.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

template <typename T>
void copyRows(const HostTensor& src, const HostTensor& dst) {
  forEachBroadcastRow<T>(dst, src, [](T*, int64_t) {});
}

}  // namespace

void copyView(const HostTensor& src, const HostTensor& dst) {
  if (dst.numel() == 0) return;
  // Same type, both dense: a plain byte copy (the common case of KV-cache and concat copies).
  if (src.dtype == dst.dtype && src.shape == dst.shape && src.strides == contiguousStrides(src.shape) &&
      dst.strides == src.strides) {
    std::copy_n(src.data, static_cast<size_t>(dst.numel()) * dtypeSize(dst.dtype), dst.data);
    return;
  }
  if (isIntegral(src.dtype, true) && isIntegral(dst.dtype, true))
    copyRows<int64_t>(src, dst);
  else
    copyRows<double>(src, dst);
}

rt::OpWork CopyInstance::work() const {
  // One pass per copy; a copy moves its source view in and its destination view out.
  rt::OpWork all;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<TensorDesc> in{inputs[i]};
    rt::OpWork w = vectorTiles(VectorPass{&in, &outputs[i], outputs[i].numel(), 0});
    all.tiles.insert(all.tiles.end(), w.tiles.begin(), w.tiles.end());
  }
  return all;
}

void CopyInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  for (size_t i = 0; i < in.size(); ++i) copyView(in[i], out[i]);
}

TensorDesc sliceView(const TensorDesc& t, int64_t dim, int64_t start, int64_t len, int64_t step) {
  TensorDesc v = t;
  const size_t d = static_cast<size_t>(dim);
  v.offset += start * t.strides[d];
  v.shape[d] = len;
  v.strides[d] = t.strides[d] * step;
  return v;
}

}  // namespace npusim::aclnn
