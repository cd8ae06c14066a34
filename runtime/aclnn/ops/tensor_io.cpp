#include "runtime/aclnn/ops/tensor_io.h"

#include <array>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/strided_loop.h"

namespace npusim::aclnn {

template <typename T>
std::vector<T> loadDense(const HostTensor& t) {
  std::vector<T> v(static_cast<size_t>(t.numel()));
  if (v.empty()) return v;
  const size_t r = t.shape.size();
  std::array<std::vector<int64_t>, 1> st = {broadcastByteStrides(t.shape, t.strides, dtypeSize(t.dtype), r)};
  T* dst = v.data();
  forEachRow<1>(t.shape, st, {t.data},
                [&](const std::array<char*, 1>& p, int64_t n, const std::array<int64_t, 1>& s) {
                  loadRow(t.dtype, p[0], s[0], n, dst);
                  dst += n;
                });
  return v;
}

template <typename T>
void storeDense(const HostTensor& t, const T* v) {
  if (t.numel() == 0) return;
  const size_t r = t.shape.size();
  std::array<std::vector<int64_t>, 1> st = {broadcastByteStrides(t.shape, t.strides, dtypeSize(t.dtype), r)};
  forEachRow<1>(t.shape, st, {t.data},
                [&](const std::array<char*, 1>& p, int64_t n, const std::array<int64_t, 1>& s) {
                  storeRow(t.dtype, p[0], s[0], n, v);
                  v += n;
                });
}

template std::vector<float> loadDense<float>(const HostTensor&);
template std::vector<double> loadDense<double>(const HostTensor&);
template std::vector<int64_t> loadDense<int64_t>(const HostTensor&);
template void storeDense<float>(const HostTensor&, const float*);
template void storeDense<double>(const HostTensor&, const double*);
template void storeDense<int64_t>(const HostTensor&, const int64_t*);

std::vector<double> loadWide(const HostTensor& t, const std::vector<int64_t>& shape) {
  std::vector<double> v(static_cast<size_t>(dimProduct(shape, 0, shape.size())));
  copyView(t, hostTensor(ACL_DOUBLE, shape, v.data()));
  return v;
}

void storeRounded(const HostTensor& t, std::vector<double>& v) {
  quantizeRow(isFloating(t.dtype) && t.dtype != ACL_DOUBLE ? ACL_FLOAT : ACL_DOUBLE, v.data(),
              static_cast<int64_t>(v.size()));
  copyView(hostTensor(ACL_DOUBLE, t.shape, v.data()), t);
}

void quantizeDense(aclDataType dt, std::vector<float>& v) {
  quantizeRow(dt, v.data(), static_cast<int64_t>(v.size()));
}

int64_t dimProduct(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < shape.size(); ++i) p *= shape[i];
  return p;
}

int64_t wrapDim(int64_t dim, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank == 0 ? 1 : rank);
  if (dim < -r || dim >= r) return -1;
  return dim < 0 ? dim + r : dim;
}

}  // namespace npusim::aclnn
