#pragma once
// N-dimensional iteration over K strided operands sharing one index space (broadcast operands
// have stride 0). Dimensions of size 1 are dropped and dimensions that are jointly contiguous
// for every operand are merged, so the callback sees the longest possible inner rows.
#include <array>
#include <cstdint>
#include <vector>

namespace npusim::aclnn {

// byteStrides[k][d]: stride of operand k along dimension d of `shape`, in bytes.
// fn(std::array<char*, K> rowStart, int64_t n, const std::array<int64_t, K>& innerStride) is
// called once per inner row, rows in row-major order of `shape`.
template <size_t K, typename Fn>
void forEachRow(const std::vector<int64_t>& shape, const std::array<std::vector<int64_t>, K>& byteStrides,
                const std::array<char*, K>& base, Fn&& fn) {
  for (int64_t d : shape) {
    if (d == 0) return;
  }
  // Keep dims with extent > 1, outermost first.
  std::vector<int64_t> ext;
  std::array<std::vector<int64_t>, K> st;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!ext.empty()) {
      bool mergeable = true;
      for (size_t k = 0; k < K; ++k) {
        if (st[k].back() != byteStrides[k][d] * shape[d]) mergeable = false;
      }
      if (mergeable) {
        ext.back() *= shape[d];
        for (size_t k = 0; k < K; ++k) st[k].back() = byteStrides[k][d];
        continue;
      }
    }
    ext.push_back(shape[d]);
    for (size_t k = 0; k < K; ++k) st[k].push_back(byteStrides[k][d]);
  }
  std::array<int64_t, K> inner{};
  if (ext.empty()) {  // a single element
    fn(base, int64_t{1}, inner);
    return;
  }
  const size_t outer = ext.size() - 1;
  const int64_t n = ext[outer];
  for (size_t k = 0; k < K; ++k) inner[k] = st[k][outer];
  std::vector<int64_t> idx(outer, 0);
  std::array<char*, K> ptr = base;
  while (true) {
    fn(ptr, n, inner);
    // Odometer increment over the outer dims, updating pointers incrementally.
    size_t d = outer;
    while (d-- > 0) {
      ++idx[d];
      for (size_t k = 0; k < K; ++k) ptr[k] += st[k][d];
      if (idx[d] < ext[d]) break;
      for (size_t k = 0; k < K; ++k) ptr[k] -= st[k][d] * ext[d];
      idx[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

// Byte strides of a view with shape `shape`/element strides `strides` aligned to an output of
// rank `rank`, with stride 0 along broadcast (size 1 or missing leading) dimensions.
inline std::vector<int64_t> broadcastByteStrides(const std::vector<int64_t>& shape,
                                                 const std::vector<int64_t>& strides, size_t elementSize,
                                                 size_t rank) {
  std::vector<int64_t> out(rank, 0);
  const size_t lead = rank - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    out[lead + i] = shape[i] == 1 ? 0 : strides[i] * static_cast<int64_t>(elementSize);
  }
  return out;
}

}  // namespace npusim::aclnn
