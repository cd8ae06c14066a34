#pragma once
// The int8 x int8 cube product shared by the quantised matmuls (QuantMatmul, FusedQuantMatmul):
// exact int32 accumulation on the host, and the cube work with 1-byte operands at the int8 MAC
// rate (configs/910b.json aicore.cube_macs_per_cycle: int8 runs 16x32x16, twice fp16;
// hardware.md §1.2).
#include <cstdint>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/matmul_geometry.h"

namespace npusim::aclnn {

// acc[(b * M + m) * N + n] = sum over k of a[b, m, k] * b[b, k, n] for the geometry's int8 views.
std::vector<int64_t> int8Products(const MatmulGeometry& g, const HostTensor& a, const HostTensor& b);

// Cube tiles of the product a @ b written to `out` (its element size as stored), with
// `paramBytes` (scales, bias) read once, shared over the tiles.
rt::OpWork int8MatmulWork(const MatmulGeometry& g, const TensorDesc& a, const TensorDesc& b,
                          const TensorDesc& out, uint64_t paramBytes);

}  // namespace npusim::aclnn
