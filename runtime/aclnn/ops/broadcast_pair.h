#pragma once
// The element loop of the two-operand engines (binary, activation gradients): out = f(a, b) with
// a and b broadcast to out's shape. Rows of both operands are loaded in chunks as values of T,
// combine(bufA, bufB, m) leaves the m results in bufA, which are rounded to `calc` (the device's
// compute type) and stored into out in its own dtype and strides.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/strided_loop.h"

namespace npusim::aclnn {

template <typename T, typename Combine>
void forEachBroadcastPair(const HostTensor& out, const HostTensor& a, const HostTensor& b, aclDataType calc,
                          Combine&& combine) {
  constexpr int64_t kChunk = 1024;
  const size_t r = out.shape.size();
  std::array<std::vector<int64_t>, 3> strides = {
      broadcastByteStrides(out.shape, out.strides, dtypeSize(out.dtype), r),
      broadcastByteStrides(a.shape, a.strides, dtypeSize(a.dtype), r),
      broadcastByteStrides(b.shape, b.strides, dtypeSize(b.dtype), r)};
  T bufA[kChunk], bufB[kChunk];
  forEachRow<3>(out.shape, strides, {out.data, a.data, b.data},
                [&](const std::array<char*, 3>& p, int64_t n, const std::array<int64_t, 3>& s) {
                  for (int64_t done = 0; done < n; done += kChunk) {
                    const int64_t m = std::min(kChunk, n - done);
                    loadRow(a.dtype, p[1] + done * s[1], s[1], m, bufA);
                    loadRow(b.dtype, p[2] + done * s[2], s[2], m, bufB);
                    combine(bufA, bufB, m);
                    quantizeRow(calc, bufA, m);
                    storeRow(out.dtype, p[0] + done * s[0], s[0], m, bufA);
                  }
                });
}

}  // namespace npusim::aclnn
