#pragma once
// The element loop of the one-operand engines (copy, unary, relu): out = f(self) with self
// broadcast to out's shape. Rows of self are loaded in chunks as values of T (the compute type),
// transform(buf, m) rewrites the m values in place, and they are stored into out in its own dtype
// and strides. The two-operand loop is broadcast_pair.h.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/strided_loop.h"

namespace npusim::aclnn {

template <typename T, typename Transform>
void forEachBroadcastRow(const HostTensor& out, const HostTensor& self, Transform&& transform) {
  constexpr int64_t kChunk = 1024;
  const size_t r = out.shape.size();
  std::array<std::vector<int64_t>, 2> strides = {
      broadcastByteStrides(out.shape, out.strides, dtypeSize(out.dtype), r),
      broadcastByteStrides(self.shape, self.strides, dtypeSize(self.dtype), r)};
  T buf[kChunk];
  forEachRow<2>(out.shape, strides, {out.data, self.data},
                [&](const std::array<char*, 2>& p, int64_t n, const std::array<int64_t, 2>& s) {
                  for (int64_t done = 0; done < n; done += kChunk) {
                    const int64_t m = std::min(kChunk, n - done);
                    loadRow(self.dtype, p[1] + done * s[1], s[1], m, buf);
                    transform(buf, m);
                    storeRow(out.dtype, p[0] + done * s[0], s[0], m, buf);
                  }
                });
}

}  // namespace npusim::aclnn
